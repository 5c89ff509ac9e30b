/**
 * The records beside the datasets: sync runs and credit limits appended as JSON lines and read
 * back; a line cut short by a crash is no record and the next append cuts it off; a damaged line is
 * a DamagedStoreError naming the file and the line; docs/store.md lists the records' fields.
 */
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsMarkdown } from './docs.ts';
import {
  checkStore,
  DamagedStoreError,
  readLimitRecords,
  readLimits,
  readSyncRuns,
  recordLimits,
  recordSyncRun,
} from './index.ts';
import { tempStore } from './testing/emulated.ts';

const ORG = 'org_records';
const limitsFile = (store: string) => join(store, '_limits', `org_id=${ORG}`, 'limits.jsonl');
const runsFile = (store: string) => join(store, '_sync', `org_id=${ORG}`, 'runs.jsonl');
const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('sync runs', () => {
  it('are appended one line each, with the last day held and the error masked; read back, the last n', async () => {
    const store = tempStore();
    const first = await recordSyncRun(store, ORG, {
      at: '2026-11-20T02:30:00.000Z',
      day: '2026-11-20',
      ok: true,
    });
    // No state of the organization: the store holds no day of it.
    expect(first).toEqual({ at: '2026-11-20T02:30:00.000Z', day: '2026-11-20', ok: true, through: null });
    await recordSyncRun(
      store,
      ORG,
      {
        at: '2026-11-21T02:30:00.000Z',
        day: '2026-11-21',
        ok: false,
        error: 'GET http://api.example/test-token-123/x failed',
      },
      { secrets: ['test-token-123'] },
    );
    await recordSyncRun(store, ORG, {
      at: '2026-11-22T02:30:00.000Z',
      day: '2026-11-22',
      ok: false,
      error: 'e',
    });

    const written = await lines(runsFile(store));
    expect(written).toHaveLength(3);
    expect(written[1].error).not.toContain('test-token-123');
    expect(written[1].error).toMatch(/^GET http:\/\/api\.example\/.+\/x failed$/);
    expect(Object.keys(written[0])).toEqual(['at', 'day', 'ok', 'through']);

    expect(await readSyncRuns(store, ORG)).toEqual(written);
    expect((await readSyncRuns(store, ORG, { last: 2 })).map((r) => r.day)).toEqual([
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(await readSyncRuns(store, ORG, { last: 10 })).toHaveLength(3);
    expect(await readSyncRuns(store, 'org_other')).toEqual([]);
  });
});

describe('credit limits', () => {
  it('keep the latest limit per lower-cased e-mail, in a file only its owner reads', async () => {
    const store = tempStore();
    await recordLimits(store, ORG, [
      { day: '2026-11-20', at: '2026-11-20T10:00:00.000Z', email: 'Ana@Example.com', limit: 100 },
      { day: '2026-11-20', at: '2026-11-20T10:00:00.000Z', email: 'bo@example.com', limit: 200 },
    ]);
    await recordLimits(store, ORG, [
      { day: '2026-11-22', at: '2026-11-22T10:00:00.000Z', email: 'ana@example.com', limit: 50 },
    ]);
    expect((await stat(limitsFile(store))).mode & 0o777).toBe(0o600);
    expect(await lines(limitsFile(store))).toHaveLength(3);
    expect((await readLimitRecords(store, ORG)).map((r) => [r.email, r.limit])).toEqual([
      ['Ana@Example.com', 100],
      ['bo@example.com', 200],
      ['ana@example.com', 50],
    ]);
    const limits = await readLimits(store, ORG);
    expect([...limits.keys()].sort()).toEqual(['ana@example.com', 'bo@example.com']);
    expect(limits.get('ana@example.com')).toEqual({
      day: '2026-11-22',
      at: '2026-11-22T10:00:00.000Z',
      email: 'ana@example.com',
      limit: 50,
    });
    expect(limits.get('bo@example.com')?.limit).toBe(200);
  });

  it('a line a crash cut short is no record, and the next append cuts it off', async () => {
    const store = tempStore();
    const at = '2026-11-20T10:00:00.000Z';
    await recordLimits(store, ORG, [{ day: '2026-11-20', at, email: 'a@example.com', limit: 1 }]);
    await appendFile(limitsFile(store), '{"day":"2026-11-20","at":"2026');
    expect([...(await readLimits(store, ORG)).keys()]).toEqual(['a@example.com']);
    expect((await checkStore(store)).damaged).toEqual([]);

    await recordLimits(store, ORG, [{ day: '2026-11-21', at, email: 'b@example.com', limit: 2 }]);
    expect((await lines(limitsFile(store))).map((l) => l.email)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('a damaged line is named with its file; checkStore finds it', async () => {
    const store = tempStore();
    const at = '2026-11-20T10:00:00.000Z';
    await recordLimits(store, ORG, [{ day: '2026-11-20', at, email: 'a@example.com', limit: 1 }]);
    const text = await readFile(limitsFile(store), 'utf8');
    for (const bad of ['not json', '{"day":"2026-11-20","at":"x","email":"b@example.com","limit":"lots"}']) {
      await writeFile(limitsFile(store), `${text}${bad}\n${text}`);
      const error = await readLimits(store, ORG).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DamagedStoreError);
      expect((error as DamagedStoreError).file).toBe(`_limits/org_id=${ORG}/limits.jsonl`);
      expect((error as DamagedStoreError).problem).toMatch(/^line 2 /);
      expect((error as DamagedStoreError).remedy).toMatch(/no rebuild remakes them: mend or delete line 2/);
      expect((await checkStore(store)).damaged.map((d) => d.file)).toEqual([
        `_limits/org_id=${ORG}/limits.jsonl`,
      ]);
    }
  });
});

describe('docs/store.md', () => {
  it('lists every record file and field (pnpm --filter @orgreport/store docs rewrites it)', async () => {
    const doc = await readFile(new URL('../../../docs/store.md', import.meta.url), 'utf8');
    const between = doc.slice(
      doc.indexOf('<!-- records:start -->') + '<!-- records:start -->'.length,
      doc.indexOf('<!-- records:end -->'),
    );
    const normal = (s: string) =>
      s
        .replace(/\s+/g, ' ')
        .replace(/\| -+ /g, '| --- ')
        .replace(/ +\|/g, ' |')
        .trim();
    expect(normal(between)).toBe(normal(recordsMarkdown()));
    expect(between).toContain('`through`');
  });
});
