import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { monthPeriod, type Snapshot, userDayColumnsFromRows } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { readSnapshot, USER_DAYS_FILE, writeSnapshot } from './disk.ts';

const now = () => new Date('2026-11-22T00:00:00Z');

function smallSnapshot(): Snapshot {
  const period = monthPeriod('2026-10', { now });
  const userDays = userDayColumnsFromRows([
    {
      user_id: 'u1',
      user_email: 'a@example.com',
      date: '2026-10-01',
      tool_calls: 5,
      billable_tokens: 100,
      languages: ['ts'],
    },
    { user_id: 'u2', user_email: null, date: '2026-10-02', tool_calls: 0, billable_tokens: 7, languages: [] },
  ]);
  return {
    manifest: {
      formatVersion: 1,
      organization: { id: 'org-1', name: 'Acme' },
      period,
      comparison: null,
      fetchedRange: { start: period.start, end: period.end },
      fetchedAt: '2026-11-22T00:00:00.000Z',
      toolVersion: '0.1.0',
      source: { baseUrl: 'http://127.0.0.1:1', appUrl: 'http://127.0.0.1:1' },
      counts: {},
      checksums: {},
      notes: [],
    },
    tokens: [
      {
        date: '2026-10-01',
        billable_tokens: 107,
        input_tokens: 1,
        output_tokens: 2,
        cache_read_tokens: 3,
        cache_write_tokens: 4,
        by_model: [],
      },
    ],
    tools: [],
    activity: [],
    productivity: [],
    userDays,
    orgUsers: [{ id: 'u1', email: 'a@example.com' }],
    readiness: [],
    controls: [],
    hookEvents: [
      { hook_event_name: 'Stop', session_id: 's', cwd: '/w', recorded_at: '2026-10-03T10:00:00Z' },
    ],
  };
}

describe('writeSnapshot / readSnapshot', () => {
  it('round-trips every dataset, with gzip JSON lines for /users rows and checksums in the manifest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-snap-'));
    const manifest = await writeSnapshot(dir, smallSnapshot());
    expect(manifest.counts).toMatchObject({ tokens: 1, userDays: 2, orgUsers: 1, hookEvents: 1 });
    expect(Object.keys(manifest.checksums)).toContain(USER_DAYS_FILE);
    const lines = gunzipSync(await readFile(join(dir, USER_DAYS_FILE)))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.user_id, l.billable_tokens])).toEqual([
      ['u1', 100],
      ['u2', 7],
    ]);

    const back = await readSnapshot(dir);
    expect(back.userDays.user_id).toEqual(['u1', 'u2']);
    expect(back.userDays.user_email).toEqual(['a@example.com', null]);
    expect(back.userDays.languages).toEqual([['ts'], []]);
    expect(back.tokens[0]!.billable_tokens).toBe(107);
    expect(back.hookEvents?.[0]?.recorded_at).toBe('2026-10-03T10:00:00Z');
    expect(back.manifest.organization.name).toBe('Acme');
  });

  it('writes strings that need escaping and non-finite numbers as valid JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-snap-'));
    const snapshot = smallSnapshot();
    snapshot.userDays = userDayColumnsFromRows([
      {
        user_id: 'u"1\\',
        user_email: '=cmd|\u202e\n@x',
        date: '2026-10-01',
        autonomy_ratio: Number.NaN,
        languages: ['"q"'],
      },
    ]);
    await writeSnapshot(dir, snapshot);
    const back = await readSnapshot(dir);
    expect(back.userDays.user_id).toEqual(['u"1\\']);
    expect(back.userDays.user_email).toEqual(['=cmd|\u202e\n@x']);
    expect(back.userDays.autonomy_ratio).toEqual([null]);
    expect(back.userDays.languages).toEqual([['"q"']]);
  });

  it('refuses a directory without a manifest, naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-snap-'));
    await expect(readSnapshot(dir)).rejects.toThrow(/no manifest\.json: not a snapshot directory/);
  });

  it('refuses a dataset altered after it was written, naming the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-snap-'));
    await writeSnapshot(dir, smallSnapshot());
    await writeFile(join(dir, 'tokens.json'), '[]\n');
    await expect(readSnapshot(dir)).rejects.toThrow(/tokens\.json does not match its checksum/);
  });

  it('keeps the unknown /users fields of the manifest and refuses a malformed list, naming the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-snap-'));
    const snapshot = smallSnapshot();
    snapshot.manifest.unknownFields = { userDays: ['x_drift_meta'] };
    const manifest = await writeSnapshot(dir, snapshot);
    expect((await readSnapshot(dir)).manifest.unknownFields).toEqual({ userDays: ['x_drift_meta'] });
    await writeFile(
      join(dir, 'manifest.json'),
      JSON.stringify({ ...manifest, unknownFields: { userDays: 'x' } }),
    );
    await expect(readSnapshot(dir)).rejects.toThrow(/manifest\.json: unknownFields\.userDays/);
  });

  it('refuses a manifest of another format, naming the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-snap-'));
    const manifest = await writeSnapshot(dir, smallSnapshot());
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 99 }));
    await expect(readSnapshot(dir)).rejects.toThrow(/manifest\.json: formatVersion/);
  });
});
