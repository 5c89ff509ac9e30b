/**
 * `monthly --store` reads the month while the sync asks the API which organization the key belongs
 * to, from the store's only organization: the report is the one read after the answer, and a key of
 * another organization gets its own organization's report.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let acme: RunningEmulator;
let other: RunningEmulator;
beforeAll(async () => {
  [acme, other] = await Promise.all([smallOrg({ users: 14 }), smallOrg({ users: 11, seed: 8 })]);
});
afterAll(async () => {
  await Promise.all([acme?.close(), other?.close()]);
});

/** The JSON report of `--month 2026-10` from `store` with the key of `emulator`, as text, and the requests made. */
async function reportText(
  store: string,
  emulator: RunningEmulator,
): Promise<{ text: string; requests: number }> {
  const out = tempDir();
  const before = emulator.requestLog.length;
  const run = await cli(
    ['monthly', '--store', store, '--month', '2026-10', '--formats', 'json', '--out', out],
    {
      env: envFor(emulator),
    },
  );
  expect(run.code, run.err).toBe(0);
  const file = readdirSync(out).find((f) => f.endsWith('.json'))!;
  return { text: readFileSync(join(out, file), 'utf8'), requests: emulator.requestLog.length - before };
}

describe('monthly --store, the month read ahead', () => {
  it("gives the report read after the sync's answer; a key of another organization gets that organization's", async () => {
    expect(other.organization.orgId).not.toBe(acme.organization.orgId);
    const store = join(tempDir(), 'store');
    const synced = await cli(['sync', '--store', store, '--since', '2026-09-01'], { env: envFor(acme) });
    expect(synced.code, synced.err).toBe(0);

    // The store's only organization: its month is read while the sync asks, one request.
    const ahead = await reportText(store, acme);
    expect(ahead.requests).toBe(1);
    expect(JSON.parse(ahead.text).organization.id).toBe(acme.organization.orgId);

    // A key of another organization: what was read ahead is not its report; its days are fetched.
    const theirs = await reportText(store, other);
    expect(theirs.requests).toBeGreaterThan(1);
    const model = JSON.parse(theirs.text);
    expect(model.organization.id).toBe(other.organization.orgId);
    const fresh = tempDir();
    const fetched = await cli(['monthly', '--month', '2026-10', '--formats', 'json', '--out', fresh], {
      env: envFor(other),
    });
    expect(fetched.code, fetched.err).toBe(0);
    const freshModel = JSON.parse(
      readFileSync(join(fresh, readdirSync(fresh).find((f) => f.endsWith('.json'))!), 'utf8'),
    );
    for (const id of ['credits', 'active_users', 'sessions', 'tool_calls']) {
      const value = (m: { figures: Array<{ id: string; value: unknown }> }) =>
        m.figures.find((f) => f.id === id)?.value;
      expect(value(model), id).toBe(value(freshModel));
    }

    // Two organizations in the store: nothing is read ahead, and the report is the same, byte for byte.
    const after = await reportText(store, acme);
    expect(after.requests).toBe(1);
    expect(after.text).toBe(ahead.text);
  }, 60_000);
});
