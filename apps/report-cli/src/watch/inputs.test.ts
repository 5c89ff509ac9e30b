import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orgFile, readLimitRecords, readSyncRuns } from './inputs.ts';
import { readWatchState, statePath, writeWatchState } from './state.ts';

const store = () => mkdtempSync(join(tmpdir(), 'orgreport-watch-inputs-'));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('the limits and sync logs the watch reads', () => {
  it('reads the valid lines, skips the others with a warning, and takes a missing file for no record', async () => {
    const root = store();
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    expect(await readLimitRecords(root, 'org 1', warn)).toEqual([]);
    const limits = orgFile(root, '_limits', 'org 1', 'limits.jsonl');
    expect(limits).toContain('org_id=org%201');
    write(
      limits,
      [
        '{"day":"2026-10-02","at":"2026-10-02T08:00:00Z","email":"a@x.example","limit":500}',
        '{"day":"2026-10-02","at":"2026-10-02T08:00:00Z","email":"b@x.example","limit":-1}',
        '{"day":"2026-10-03","at":"2026-10-03T08:0', // cut short by a crash
        '',
      ].join('\n'),
    );
    expect(await readLimitRecords(root, 'org 1', warn)).toEqual([
      { day: '2026-10-02', at: '2026-10-02T08:00:00Z', email: 'a@x.example', limit: 500 },
    ]);
    expect(warnings).toEqual([
      `${limits}: line 2: limit Too small: expected number to be >=0; skipped`,
      `${limits}: line 3 is not JSON; skipped`,
    ]);
    write(
      orgFile(root, '_sync', 'org 1', 'runs.jsonl'),
      '{"at":"2026-10-05T02:31:00Z","day":"2026-10-05","ok":false,"through":"2026-10-03","error":"HTTP 503"}\n{"at":"x","day":"2026-10-06","ok":true,"through":null}\n',
    );
    expect(await readSyncRuns(root, 'org 1', warn)).toEqual([
      { at: '2026-10-05T02:31:00Z', day: '2026-10-05', ok: false, through: '2026-10-03', error: 'HTTP 503' },
      { at: 'x', day: '2026-10-06', ok: true, through: null },
    ]);
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
