/**
 * Schema drift (emulator `drift: true`): unknown fields everywhere, settings renamed and removed in
 * some revisions, a client type and a delegation level the spec does not list. The report still
 * builds, its figures equal those of the same organization without drift, the new values are
 * shown rather than dropped, and the drift is counted under data quality.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DRIFT, type RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from '../helpers.ts';
import { comparable } from './harness.ts';

const ORG = { seed: 13, users: 24, repos: 2 };
const BASE = 'orgreport-drift-org-2026-10';

interface Report {
  figures: Array<{ id: string; value: unknown }>;
  clients: Array<{ client: string; user_days: number }>;
  dataQuality: Array<{ kind: string; count: number; details?: unknown }>;
  controls: { changes: unknown[] };
}

async function report(options: { drift: boolean }) {
  const emulator: RunningEmulator = await smallOrg({ ...ORG, ...options });
  try {
    const out = tempDir();
    const run = await cli(['monthly', '--out', out, '--org-name', 'Drift Org', '--formats', 'json,xlsx'], {
      env: envFor(emulator),
    });
    const model =
      run.code === 0
        ? comparable(JSON.parse(readFileSync(join(out, `${BASE}.json`), 'utf8')) as Report, emulator.baseUrl)
        : undefined;
    const manifest =
      run.code === 0
        ? (JSON.parse(readFileSync(join(out, 'snapshot', 'manifest.json'), 'utf8')) as {
            unknownFields?: Record<string, string[]>;
          })
        : undefined;
    return { run, model, manifest, emulator };
  } finally {
    await emulator.close();
  }
}

let drifted: Awaited<ReturnType<typeof report>>;
let plain: Awaited<ReturnType<typeof report>>;

beforeAll(async () => {
  [drifted, plain] = await Promise.all([report({ drift: true }), report({ drift: false })]);
}, 120_000);
afterAll(() => undefined);

describe('schema drift', () => {
  it('the report still builds (JSON and workbook)', () => {
    expect(plain.run.code, plain.run.err).toBe(0);
    expect(drifted.run.code, drifted.run.err).toBe(0);
  });

  it('every headline figure equals the one without drift', () => {
    expect(drifted.model?.figures).toEqual(plain.model?.figures);
  });

  it('shows the unknown client type with its user-days instead of dropping it', () => {
    const row = drifted.model?.clients.find((c) => c.client === DRIFT.clientType);
    expect(row?.user_days).toBeGreaterThan(0);
    expect(plain.model?.clients.some((c) => c.client === DRIFT.clientType)).toBe(false);
  });

  it('counts users with the unknown delegation level under data quality', () => {
    const finding = drifted.model?.dataQuality.find((f) => f.kind === 'delegation_unknown');
    expect(finding?.count).toBeGreaterThan(0);
    expect(JSON.stringify(finding?.details)).toContain(DRIFT.delegationLevel);
    expect(plain.model?.dataQuality.some((f) => f.kind === 'delegation_unknown')).toBe(false);
  });

  it('names the unknown /users fields in the snapshot manifest, and none without drift', () => {
    expect(drifted.manifest?.unknownFields?.userDays).toEqual(
      expect.arrayContaining([DRIFT.extraField, DRIFT.extraScalarField]),
    );
    expect(plain.manifest).toBeDefined();
    expect(plain.manifest?.unknownFields).toBeUndefined();
  });

  it('lists renamed and removed settings among the control changes', () => {
    const text = JSON.stringify(drifted.model?.controls.changes);
    expect(text).toContain('cloudSessionSyncEnabled');
    expect(text).toContain(DRIFT.addedSetting);
  });
});
