import { appendFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DamagedStoreError, recordLimits, recordSyncRun } from '@orgreport/store';
import { describe, expect, it } from 'vitest';
import { readLimitRecords, readSyncRuns } from './inputs.ts';
import { readWatchState, statePath, writeWatchState } from './state.ts';

const store = () => mkdtempSync(join(tmpdir(), 'orgreport-watch-inputs-'));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('the limits and sync logs the watch reads', () => {
  it("are the store's records: none when nothing was recorded, a damaged line the store's error, never skipped", async () => {
    const root = store();
    await recordSyncRun(root, 'org 1', {
      at: '2026-10-05T02:31:00Z',
      day: '2026-10-05',
      ok: false,
      error: 'HTTP 503',
    });
    expect(await readLimitRecords(root, 'org 1')).toEqual([]);
    expect(await readSyncRuns(root, 'org 1')).toEqual([
      { at: '2026-10-05T02:31:00Z', day: '2026-10-05', ok: false, through: null, error: 'HTTP 503' },
    ]);
    const limit = { day: '2026-10-02', at: '2026-10-02T08:00:00Z', email: 'a@x.example', limit: 500 };
    await recordLimits(root, 'org 1', [limit]);
    expect(await readLimitRecords(root, 'org 1')).toEqual([limit]);

    const file = '_limits/org_id=org%201/limits.jsonl';
    appendFileSync(
      join(root, file),
      '{"day":"2026-10-03","at":"2026-10-03T08:00:00Z","email":"b@x.example"}\n',
    );
    const error = await readLimitRecords(root, 'org 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DamagedStoreError);
    expect(error).toMatchObject({ file, problem: 'line 2 has no valid "limit" (number)' });
  });
});

describe('the watch state', () => {
  const state = {
    version: 1 as const,
    orgId: 'org_1',
    lastDay: '2026-10-07',
    lastRevision: 36,
    fired: { 'spike|user:a@x.example|2026-10-07': { day: '2026-10-08', rule: 'spike' as const } },
  };

  it('is written whole, readable by its owner only, and read back', async () => {
    const root = store();
    expect(await readWatchState(root, 'org_1')).toBeNull();
    await writeWatchState(root, state);
    expect(statSync(statePath(root, 'org_1')).mode & 0o777).toBe(0o600);
    expect(await readWatchState(root, 'org_1')).toEqual(state);
    await writeWatchState(root, { ...state, lastRevision: 37 });
    expect((await readWatchState(root, 'org_1'))?.lastRevision).toBe(37);
  });

  it('refuses a damaged state or another organization’s, rather than sending everything again', async () => {
    const root = store();
    write(statePath(root, 'org_1'), '{"version":1,');
    await expect(readWatchState(root, 'org_1')).rejects.toThrow(/is not valid JSON: move it away/);
    write(statePath(root, 'org_1'), JSON.stringify({ ...state, orgId: 'org_2' }));
    await expect(readWatchState(root, 'org_1')).rejects.toThrow(/is not a watch state of organization org_1/);
  });
});
