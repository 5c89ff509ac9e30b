/**
 * The fetch stage and offline re-rendering: `monthly` writes the snapshot next to the report,
 * `render --snapshot` recomputes the same model without network or key, `fetch` writes a snapshot
 * alone, and a failed run leaves no file that looks complete and keeps the previous report.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { readSnapshot } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ seed: 5 });
});
afterAll(() => emulator?.close());

// Without a configured name the organization is named by its users' e-mail domain.
const base = () => `orgreport-${emulator.organization.domain.replace(/[^a-z0-9]+/g, '-')}-2026-10`;

describe('snapshot and offline re-render', () => {
  it('monthly writes the model and the snapshot; render --snapshot reproduces the model offline', async () => {
    const out = tempDir();
    const monthly = await cli(['monthly', '--formats', 'json', '--out', out], { env: envFor(emulator) });
    expect(monthly.code, monthly.err).toBe(0);
    expect(monthly.out).toMatch(/done in [\d.]+ s: 2 output\(s\)/);
    const modelFile = join(out, `${base()}.json`);
    const model = JSON.parse(readFileSync(modelFile, 'utf8'));
    expect(model.period).toMatchObject({
      month: '2026-10',
      start: '2026-10-01',
      end: '2026-10-31',
      partial: false,
    });

    const snapshot = await readSnapshot(join(out, 'snapshot'));
    expect(snapshot.manifest.fetchedRange).toEqual({ start: '2026-09-01', end: '2026-10-31' });
    expect(snapshot.tokens).toHaveLength(61);
    expect(snapshot.tokens.every((d) => !('by_user' in d))).toBe(true);
    expect(snapshot.orgUsers).toHaveLength(30);

    // No network and no key: an empty environment, and the emulator is not even addressed.
    const offline = tempDir();
    const before = emulator.requestLog.length;
    const render = await cli(
      ['render', '--snapshot', join(out, 'snapshot'), '--formats', 'json', '--out', offline, '--verbose'],
      {
        env: {},
      },
    );
    expect(render.code, render.err).toBe(0);
    // The compute's garbage is collected before the documents are written, not on top of them.
    const stages = render.err
      .split('\n')
      .map((line) => /^(?:debug: )?(compute|memory|json):/.exec(line)?.[1])
      .filter(Boolean);
    expect(stages).toEqual(['compute', 'memory', 'json']);
    expect(render.err).toMatch(
      /debug: memory: the compute's garbage collected in [\d.]+ s: heap \d+ MB to \d+ MB/,
    );
    expect(emulator.requestLog.length).toBe(before);
    const again = JSON.parse(readFileSync(join(offline, `${base()}.json`), 'utf8'));
    expect(again).toEqual(model);
  });

  it("render --snapshot of the demo's snapshot gives the demo's report again: its prices and directory too", async () => {
    const out = tempDir();
    const demo = await cli(['monthly', '--demo', '--demo-users', '40', '--formats', 'json', '--out', out], {
      env: {},
    });
    expect(demo.code, demo.err).toBe(0);
    const file = readdirSync(out).find((f) => f.endsWith('.json'))!;
    const model = JSON.parse(readFileSync(join(out, file), 'utf8'));
    // The demo's report is priced and has its directory's teams and bill.
    expect(model.pricing).not.toBeNull();
    expect(model.sections.chargeback).toBeTruthy();
    const offline = tempDir();
    const render = await cli(
      ['render', '--snapshot', join(out, 'snapshot'), '--formats', 'json', '--out', offline],
      {
        env: {},
      },
    );
    expect(render.code, render.err).toBe(0);
    expect(render.err).toMatch(/the demo organization's snapshot: with the demo's prices and directory/);
    const again = JSON.parse(readFileSync(join(offline, file), 'utf8'));
    expect({ ...again, generatedAt: null }).toEqual({ ...model, generatedAt: null });
  });

  it('the snapshot sums to the analytics totals the API reports for the month', async () => {
    const out = tempDir();
    expect((await cli(['fetch', '--month', '2026-10', '--out', out], { env: envFor(emulator) })).code).toBe(
      0,
    );
    const snapshot = await readSnapshot(join(out, 'snapshot'));
    const inOctober = (d: string) => d >= '2026-10-01' && d <= '2026-10-31';
    const fromDays = snapshot.tokens
      .filter((d) => inOctober(d.date))
      .reduce((s, d) => s + d.billable_tokens, 0);
    let fromUsers = 0;
    snapshot.userDays.date.forEach((d, i) => {
      if (inOctober(d)) fromUsers += snapshot.userDays.billable_tokens[i]!;
    });
    expect(fromUsers).toBe(fromDays);
    expect(fromDays).toBeGreaterThan(0);
  });

  it('render --snapshot names what is wrong with a damaged snapshot (exit 2)', async () => {
    const out = tempDir();
    expect((await cli(['fetch', '--out', out], { env: envFor(emulator) })).code).toBe(0);
    writeFileSync(join(out, 'snapshot', 'activity.json'), '[]\n');
    const result = await cli(['render', '--snapshot', join(out, 'snapshot'), '--out', tempDir()], {
      env: {},
    });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/snapshot .*: activity\.json does not match its checksum/);
    const missing = await cli(['render', '--snapshot', tempDir(), '--out', tempDir()], { env: {} });
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no manifest\.json: not a snapshot directory/);
  });

  it('a run that fails leaves the previous report intact and nothing that looks complete', async () => {
    const out = tempDir();
    const previous = join(out, `${base()}.json`);
    writeFileSync(previous, '{"previous":true}\n');
    const broken = await smallOrg({ seed: 5, faults: { rate: 1, kinds: ['server-error'] } });
    try {
      const result = await cli(['monthly', '--formats', 'json', '--out', out], { env: envFor(broken) });
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/failed: GET .*returned 500/);
    } finally {
      await broken.close();
    }
    expect(readFileSync(previous, 'utf8')).toBe('{"previous":true}\n');
    expect(readdirSync(out)).toEqual([`${base()}.json`]);
    expect(existsSync(join(out, 'snapshot'))).toBe(false);
  });
});
