/** Several organizations in one config file: --org picks one, --all-orgs runs each, into one store. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, readWorkbook, sheetObjects, smallOrg, tempDir } from './helpers.ts';

let eu: RunningEmulator;
let us: RunningEmulator;
beforeAll(async () => {
  [eu, us] = await Promise.all([smallOrg({ seed: 21, users: 12 }), smallOrg({ seed: 22, users: 9 })]);
});
afterAll(async () => {
  await Promise.all([eu?.close(), us?.close()]);
});

function configFile(organizations: unknown[]): string {
  const path = join(tempDir(), 'orgreport.config.json');
  writeFileSync(path, JSON.stringify({ organizations }));
  return path;
}

const listed = () => [
  { name: 'Acme EU', apiKeyEnv: 'KEY_EU', baseUrl: eu.baseUrl },
  { name: 'Acme US', id: us.organization.orgId, apiKeyEnv: 'KEY_US', baseUrl: us.baseUrl },
];
const keys = () => ({ KEY_EU: eu.keys.manager, KEY_US: us.keys.manager });

describe('organizations in the config file', () => {
  it('sync --all-orgs stores each organization beside the other; monthly --org reports one, --all-orgs each', async () => {
    const config = configFile(listed());
    const store = join(tempDir(), 'store');
    const synced = await cli(
      ['sync', '--config', config, '--all-orgs', '--store', store, '--since', '2026-09-01', '--json'],
      {
        env: keys(),
      },
    );
    expect(synced.code, synced.err).toBe(0);
    const lines = synced.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.organization.id, l.organization.name])).toEqual([
      [eu.organization.orgId, 'Acme EU'],
      [us.organization.orgId, 'Acme US'],
    ]);
    expect(readdirSync(join(store, 'user_days')).sort()).toEqual(
      [`org_id=${eu.organization.orgId}`, `org_id=${us.organization.orgId}`].sort(),
    );
    // No key is ever printed.
    for (const key of Object.values(keys())) expect(synced.out + synced.err).not.toContain(key);

    const users = await cli(
      [
        'query',
        '--store',
        store,
        '--format',
        'json',
        'SELECT org_id, count(DISTINCT user_id) AS users FROM user_days GROUP BY ALL ORDER BY 1',
      ],
      { env: {} },
    );
    expect(users.code, users.err).toBe(0);
    expect(users.out.trim().split('\n').length).toBe(2);

    // --org by name (any case): that organization's report only, from the store.
    const one = tempDir();
    const before = us.requestLog.length;
    const single = await cli(
      [
        'monthly',
        '--config',
        config,
        '--org',
        'acme us',
        '--store',
        store,
        '--month',
        '2026-10',
        '--formats',
        'json',
        '--out',
        one,
      ],
      { env: keys() },
    );
    expect(single.code, single.err).toBe(0);
    expect(us.requestLog.length - before).toBe(0); // its id is configured: not even which organization is asked
    const files = readdirSync(one).filter((f) => f.endsWith('.json'));
    expect(files).toEqual(['orgreport-acme-us-2026-10.json']);
    const usModel = JSON.parse(readFileSync(join(one, files[0]!), 'utf8'));
    expect(usModel.organization).toEqual({ id: us.organization.orgId, name: 'Acme US' });

    // --all-orgs: one folder per organization.
    const all = tempDir();
    const both = await cli(
      [
        'monthly',
        '--config',
        config,
        '--all-orgs',
        '--store',
        store,
        '--month',
        '2026-10',
        '--formats',
        'json',
        '--out',
        all,
      ],
      { env: keys() },
    );
    expect(both.code, both.err).toBe(0);
    expect(existsSync(join(all, 'acme-eu', 'orgreport-acme-eu-2026-10.json'))).toBe(true);
    expect(existsSync(join(all, 'acme-us', 'orgreport-acme-us-2026-10.json'))).toBe(true);
    expect(existsSync(join(all, 'acme-eu', 'snapshot'))).toBe(false); // the store keeps the month

    // The rollup, from the store alone: a row per organization, and totals equal to the sum of their reports.
    const reports = ['acme-eu', 'acme-us'].map((slug) =>
      JSON.parse(readFileSync(join(all, slug, `orgreport-${slug}-2026-10.json`), 'utf8')),
    );
    const figure = (model: { figures: Array<{ id: string; value: number }> }, id: string) =>
      model.figures.find((f) => f.id === id)!.value;
    const rolled = tempDir();
    const requestsBefore = eu.requestLog.length + us.requestLog.length;
    const rollup = await cli(
      ['rollup', '--store', store, '--month', '2026-10', '--formats', 'json,xlsx', '--out', rolled, '--json'],
      { env: {} },
    );
    expect(rollup.code, rollup.err).toBe(0);
    expect(eu.requestLog.length + us.requestLog.length).toBe(requestsBefore);
    const out = JSON.parse(rollup.out);
    const model = JSON.parse(
      readFileSync(out.outputs.find((o: { kind: string }) => o.kind === 'json').path, 'utf8'),
    );
    expect(model.organization.name).toBe('All organizations (2)');
    const rows = model.sections.rollup.rows as Array<Record<string, number | string | boolean>>;
    expect(rows.map((r) => r.organization)).toEqual(['Acme EU', 'Acme US', 'All organizations (2)']);
    for (const id of ['credits', 'active_users', 'seats', 'sessions', 'tool_calls', 'git_commits']) {
      const sum = figure(reports[0], id) + figure(reports[1], id);
      expect(figure(model, id), id).toBe(sum);
      expect(rows[2]![id], id).toBe(sum);
      expect(rows[0]![id], id).toBe(figure(reports[0], id));
    }
    expect(model.sections.rollup.creditsReconcile).toBe(true);
    // The total's ratios are recomputed over both, not averaged.
    expect(figure(model, 'seat_utilization')).toBeCloseTo(
      (figure(reports[0], 'active_users') + figure(reports[1], 'active_users')) /
        (figure(reports[0], 'seats') + figure(reports[1], 'seats')),
      12,
    );
    const workbook = readWorkbook(out.outputs.find((o: { kind: string }) => o.kind === 'xlsx').path);
    const sheet = sheetObjects(workbook.Organizations);
    expect(sheet.map((r) => r.organization)).toEqual(['Acme EU', 'Acme US', 'All organizations (2)']);
    // The stacking columns are the rollup's own; each organization's id is its row's.
    expect(workbook.Organizations![0]!.slice(0, 5)).toEqual([
      'org_id',
      'month',
      'scope',
      'organization_id',
      'organization',
    ]);
    // A rollup covers its organizations whole: its scope is the organization's.
    expect(sheet.map((r) => [r.org_id, r.month, r.scope])).toEqual(
      Array(3).fill(['rollup', '2026-10-01', 'organization']),
    );
    expect(sheet.map((r) => r.organization_id)).toEqual([
      eu.organization.orgId,
      us.organization.orgId,
      'rollup',
    ]);
    expect(sheet[2]!.credits).toBe(figure(reports[0], 'credits') + figure(reports[1], 'credits'));

    // Priced, each organization's bill is to the cent, and the rollup's is their sum, in the
    // Organizations table and on the Summary alike (not the combined credits priced once).
    const pricedOut = tempDir();
    const priced = await cli(
      ['rollup', '--store', store, '--month', '2026-10', '--formats', 'xlsx', '--out', pricedOut, '--json'],
      { env: { ORGREPORT_PRICE_PER_CREDIT: '0.000004' } },
    );
    expect(priced.code, priced.err).toBe(0);
    const pricedBook = readWorkbook(
      JSON.parse(priced.out).outputs.find((o: { kind: string }) => o.kind === 'xlsx').path,
    );
    const costs = sheetObjects(pricedBook.Organizations).map((r) => Number(r.cost));
    const cents = (credits: number) => Math.round(credits * 0.000004 * 100);
    expect(costs.slice(0, 2).map((c) => Math.round(c * 100))).toEqual(
      [0, 1].map((i) => cents(figure(reports[i]!, 'credits'))),
    );
    expect(Math.round(costs[2]! * 100)).toBe(Math.round(costs[0]! * 100) + Math.round(costs[1]! * 100));
    const summaryCost = sheetObjects(pricedBook.Summary).find((r) => r.id === 'cost')!;
    expect(Number(summaryCost.value)).toBe(costs[2]);
  });

  it('says what is wrong: an unknown --org, several organizations and no choice, a key variable not set, a bad entry', async () => {
    const config = configFile(listed());
    const unknown = await cli(
      ['sync', '--config', config, '--org', 'Acme Asia', '--store', join(tempDir(), 's')],
      {
        env: keys(),
      },
    );
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(
      '--org Acme Asia: no such organization in the config file (listed: Acme EU, Acme US)',
    );

    const noChoice = await cli(['sync', '--config', config, '--store', join(tempDir(), 's')], {
      env: keys(),
    });
    expect(noChoice.code).toBe(2);
    expect(noChoice.err).toContain('choose one with --org NAME, or all with --all-orgs');

    const noKey = await cli(
      ['sync', '--config', config, '--org', 'Acme EU', '--store', join(tempDir(), 's')],
      {
        env: { KEY_US: us.keys.manager },
      },
    );
    expect(noKey.code).toBe(3);
    expect(noKey.err).toContain('organization "Acme EU": no API key: set the variable KEY_EU');

    const both = configFile([{ name: 'X', apiKeyEnv: 'K', apiKey: 'inline-key-value' }]);
    const bad = await cli(['sync', '--config', both, '--store', join(tempDir(), 's')], { env: {} });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('apiKeyEnv');
    expect(bad.err).not.toContain('inline-key-value');

    // One organization failing does not stop the other's sync; the run fails at the end.
    const store = join(tempDir(), 'store');
    const partly = await cli(
      ['sync', '--config', config, '--all-orgs', '--store', store, '--since', '2026-11-01'],
      {
        env: { KEY_US: us.keys.manager, KEY_EU: 'wrong-key-for-eu' },
      },
    );
    expect(partly.code).toBe(1);
    expect(partly.err).toContain('1 of 2 organizations failed to sync (Acme EU)');
    expect(readdirSync(join(store, 'user_days'))).toEqual([`org_id=${us.organization.orgId}`]);
    expect(partly.err).not.toContain('wrong-key-for-eu');
  });
});
