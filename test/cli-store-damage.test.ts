/**
 * A damaged store from the command line: `monthly --store`, `rollup`, `query` and `sync` each stop
 * with exit code 1 and a message that names the damaged file inside the store and the command that
 * remakes it (never the engine's own words); `sync --rebuild` mends it and the report is made again.
 */
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
/** A store of 2026-09-01..2026-11-21, synced once; each case damages a copy. */
let pristine: string;
let orgId: string;
beforeAll(async () => {
  emulator = await smallOrg({ users: 14 });
  pristine = join(tempDir(), 'store');
  const synced = await cli(['sync', '--store', pristine, '--since', '2026-09-01', '--json'], {
    env: envFor(emulator),
  });
  expect(synced.code, synced.err).toBe(0);
  orgId = JSON.parse(synced.out).organization.id;
}, 60_000);
afterAll(() => emulator?.close());

function copy(): string {
  const store = join(tempDir(), 'store');
  cpSync(pristine, store, { recursive: true });
  return store;
}

/** The commands that read the store, each as a user runs it. */
const COMMANDS: Record<string, (store: string) => string[]> = {
  'monthly --store': (store) => [
    'monthly',
    '--store',
    store,
    '--month',
    '2026-10',
    '--formats',
    'json',
    '--out',
    tempDir(),
  ],
  rollup: (store) => [
    'rollup',
    '--store',
    store,
    '--month',
    '2026-10',
    '--formats',
    'json',
    '--out',
    tempDir(),
  ],
  query: (store) => ['query', '--store', store, "SELECT count(*) FROM user_days WHERE month = '2026-10'"],
  sync: (store) => ['sync', '--store', store, '--since', '2026-09-01'],
};

const partition = () => `user_days/org_id=${orgId}/month=2026-10/part-0.parquet`;
const state = () => `_state/org_id=${orgId}.json`;

/**
 * Damages: the file inside the store, what is done to it, the words the message has for it, and the
 * commands that read that file (`query` reads the datasets only, never a state).
 */
const DAMAGES: Array<{
  name: string;
  file: () => string;
  damage: (path: string) => void;
  problem: RegExp;
  readers?: string[];
}> = [
  {
    name: 'a Parquet file cut short',
    file: partition,
    damage: (p) => truncateSync(p, Math.floor(statSync(p).size / 2)),
    problem: /is cut short/,
  },
  {
    name: 'a zero-byte Parquet file',
    file: partition,
    damage: (p) => truncateSync(p, 0),
    problem: /is empty/,
  },
  {
    name: 'a garbage Parquet file',
    file: partition,
    damage: (p) => writeFileSync(p, 'garbage '.repeat(500)),
    problem: /is not a Parquet file/,
  },
  {
    name: 'a _store.json cut short',
    file: () => '_store.json',
    damage: (p) => writeFileSync(p, readFileSync(p, 'utf8').slice(0, 30)),
    problem: /is not valid JSON/,
  },
  {
    name: 'a state file that is not JSON',
    file: state,
    damage: (p) => writeFileSync(p, '{"orgId": '),
    problem: /is not valid JSON/,
    readers: ['monthly --store', 'rollup', 'sync'],
  },
  {
    name: 'a state file that cannot be read',
    file: state,
    damage: (p) => {
      rmSync(p);
      mkdirSync(p);
    },
    problem: /cannot be read \(EISDIR\)/,
    readers: ['monthly --store', 'rollup', 'sync'],
  },
];

describe('a damaged store', () => {
  for (const { name, file, damage, problem, readers = Object.keys(COMMANDS) } of DAMAGES) {
    it.each(readers)(`${name}: %s names the file and the rebuild, exit 1`, async (command) => {
      const store = copy();
      damage(join(store, file()));
      const run = await cli(COMMANDS[command]!(store), { env: envFor(emulator) });
      expect(run.code, run.err).toBe(1);
      const message = run.err.trim().split('\n').at(-1)!;
      expect(message).toMatch(/^orgreport: the store .+ is damaged: /);
      expect(message).toContain(` ${file()} `);
      expect(message).toMatch(problem);
      expect(message).toContain(`orgreport sync --store ${store} --rebuild`);
      // The engine's words stay out of it.
      expect(run.err).not.toMatch(/No magic bytes found|Invalid Input Error|too small to be a Parquet file/);
    });
  }

  it('query reads no state: it answers over whole datasets beside a damaged state', async () => {
    const store = copy();
    writeFileSync(join(store, state()), '{"orgId": ');
    const run = await cli(COMMANDS.query!(store), { env: {} });
    expect(run.code, run.err).toBe(0);
  });

  it('sync --rebuild mends it, without a request: the report is made again', async () => {
    const store = copy();
    truncateSync(join(store, partition()), 0);
    writeFileSync(join(store, '_store.json'), '{');
    const before = emulator.requestLog.length;
    const rebuilt = await cli(['sync', '--store', store, '--rebuild'], { env: envFor(emulator) });
    expect(rebuilt.code, rebuilt.err).toBe(0);
    expect(emulator.requestLog.length).toBe(before);

    const out = tempDir();
    const monthly = await cli(
      ['monthly', '--store', store, '--month', '2026-10', '--formats', 'json', '--out', out],
      { env: envFor(emulator) },
    );
    expect(monthly.code, monthly.err).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const query = await cli(
      ['query', '--store', store, '--format', 'json', 'SELECT count(*) AS n FROM user_days'],
      {
        env: {},
      },
    );
    expect(query.code, query.err).toBe(0);
    expect(JSON.parse(query.out).n).toBeGreaterThan(0);
  });
});
