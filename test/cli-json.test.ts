/** `--json`: one machine-readable summary on stdout for monthly, fetch and render; progress stays on stderr. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 12 });
});
afterAll(() => emulator?.close());

/** The one JSON object a run printed on stdout (the whole stdout must be that object). */
function summaryOf(out: string) {
  expect(out.trim().split('\n')).toHaveLength(1);
  return JSON.parse(out) as {
    command: string;
    organization: { id: string; name: string };
    period: { month: string };
    outputs: Array<{ kind: string; path: string; bytes: number }>;
    figures?: Array<{ id: string; value: number | null }>;
    dataQuality: unknown[];
    timings: { totalMs: number };
  };
}

describe('--json', () => {
  it('monthly, fetch and render each print one summary whose outputs are the files written', async () => {
    const out = tempDir();
    const monthly = await cli(
      ['monthly', '--month', '2026-10', '--out', out, '--formats', 'json,xlsx', '--json'],
      {
        env: envFor(emulator),
      },
    );
    expect(monthly.code, monthly.err).toBe(0);
    const m = summaryOf(monthly.out);
    expect(m.command).toBe('monthly');
    expect(m.period.month).toBe('2026-10');
    expect(m.outputs.map((o) => o.kind).sort()).toEqual(['json', 'snapshot', 'xlsx']);
    for (const o of m.outputs.filter((x) => x.kind !== 'snapshot'))
      expect(statSync(o.path).size).toBe(o.bytes);
    expect(m.figures?.find((f) => f.id === 'active_users')?.value).toBeGreaterThan(0);
    expect(m.timings.totalMs).toBeGreaterThan(0);
    expect(monthly.err).toContain('compute:'); // progress went to stderr

    const snapshotDir = join(tempDir(), 'snap');
    const fetch = await cli(['fetch', '--month', '2026-10', '--snapshot', snapshotDir, '--json'], {
      env: envFor(emulator),
    });
    expect(fetch.code, fetch.err).toBe(0);
    const f = summaryOf(fetch.out);
    expect(f).toMatchObject({ command: 'fetch', outputs: [{ kind: 'snapshot', path: snapshotDir }] });
    expect(f.figures).toBeUndefined();

    const rendered = tempDir();
    const render = await cli([
      'render',
      '--snapshot',
      snapshotDir,
      '--out',
      rendered,
      '--formats',
      'json',
      '--json',
    ]);
    expect(render.code, render.err).toBe(0);
    const r = summaryOf(render.out);
    expect(r.command).toBe('render');
    expect(r.figures).toEqual(m.figures);
    expect(r.organization).toEqual(m.organization);
  }, 120_000);
});
