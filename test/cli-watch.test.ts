/**
 * `orgreport watch` after a daily `sync`, day by day, against an emulator with planted events (a
 * security setting flipped, one user's credits multiplied, a cost center over its budget) and
 * against the same organization without them: each planted alert is new on the day after its event
 * and never again; the clean organization fires nothing.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, eachDay } from '@orgreport/api-core';
import { directoryCsv, directoryOf, type RunningEmulator } from '@orgreport/emulator';
import type { Alert } from '@orgreport/watch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

// The watch runs on each day of FIRST..LAST (the data through the day before). The natural control
// history of seed 7 has a revision on 2026-09-01 and the next on 2026-09-14 at 20:10: none is seen
// inside the window, so the only change the watch can find is the planted one.
const FIRST = '2026-09-02';
const LAST = '2026-09-14';
const SINCE = '2026-07-01';
const SECURITY_DAY = '2026-09-04'; // a Friday: the watch of the 5th finds it
const SPIKE_DAY = '2026-09-08'; // a Tuesday: the watch of the 9th finds it
const SPIKED_USER = 8; // active on 20 of the 28 days before SPIKE_DAY
const BUDGET_DAY = '2026-09-10'; // CC-200's credits of September reach its budget on this day
const COST_CENTER = 'CC-200 Product';
// The default 3x fires on the emulator's natural day-to-day swings (see docs/watch.md); 8x on users
// and the organization does not in this window.
const SPIKE = { multiple: 8, scopes: ['organization', 'user'] };

let planted: RunningEmulator;
let clean: RunningEmulator;
beforeAll(async () => {
  planted = await smallOrg({
    plant: [
      { kind: 'security-change', day: SECURITY_DAY, setting: 'enableAgentShield' },
      { kind: 'credit-spike', user: SPIKED_USER, from: SPIKE_DAY, factor: 25 },
    ],
  });
  clean = await smallOrg();
});
afterAll(async () => {
  await planted?.close();
  await clean?.close();
});

interface WatchJson {
  command: string;
  dryRun: boolean;
  organizations: Array<{ id: string; lastDay: string }>;
  alerts: Alert[];
}

/** September's credits of the cost center up to each day, from the organization itself. */
function costCenterToDate(emulator: RunningEmulator): Map<string, number> {
  const org = emulator.organization;
  const members = directoryOf(org)
    .filter((p) => p.costCenter === COST_CENTER)
    .map((p) => org.userIndexOfEmail(p.email)!);
  const out = new Map<string, number>();
  let sum = 0;
  for (const day of eachDay('2026-09-01', '2026-09-30')) {
    for (const i of members) sum += org.userDay(i, day)?.billable_tokens ?? 0;
    out.set(day, sum);
  }
  return out;
}

/** Syncs and watches each day of the window; returns every watch's JSON by day. */
async function watchDays(
  emulator: RunningEmulator,
  config: object,
  onDay?: (day: string, store: string, args: string[]) => Promise<void>,
): Promise<{ store: string; days: Map<string, WatchJson> }> {
  const dir = tempDir('orgreport-watch-');
  const store = join(dir, 'store');
  const people = join(dir, 'people.csv');
  writeFileSync(people, directoryCsv(emulator.organization));
  const configFile = join(dir, 'orgreport.config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const env = envFor(emulator);
  const days = new Map<string, WatchJson>();
  for (const day of eachDay(FIRST, LAST)) {
    const synced = await cli(['sync', '--store', store, '--since', SINCE, '--today', day, '--quiet'], {
      env,
    });
    expect(synced.code, synced.err).toBe(0);
    const args = [
      'watch',
      '--store',
      store,
      '--today',
      day,
      '--config',
      configFile,
      '--directory',
      people,
      '--json',
    ];
    await onDay?.(day, store, args);
    const run = await cli(args, { env: {} });
    expect(run.code, run.err).toBe(0);
    const json = JSON.parse(run.out) as WatchJson;
    expect(json.organizations[0]!.lastDay).toBe(addDays(day, -1));
    days.set(day, json);
    // Run again the same day: none new (a control change, once seen, is not listed again).
    const again = JSON.parse((await cli(args, { env: {} })).out) as WatchJson;
    expect(again.alerts.filter((a) => a.new)).toEqual([]);
    for (const a of again.alerts) expect(json.alerts.map((b) => b.key)).toContain(a.key);
  }
  return { store, days };
}

/** The days each alert key was new on. */
function newDays(days: Map<string, WatchJson>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [day, json] of days) {
    for (const a of json.alerts) if (a.new) out.set(a.key, [...(out.get(a.key) ?? []), day]);
  }
  return out;
}

// Each test runs 13 days of sync and two watches (about 40 CLI processes): minutes on a loaded machine.
describe('orgreport watch, day by day after sync', () => {
  it('fires each planted event once, on the day after it, and nothing else', async () => {
    const toDate = costCenterToDate(planted);
    const budget = toDate.get(BUDGET_DAY)!;
    expect(toDate.get(addDays(BUDGET_DAY, -1))!).toBeLessThan(budget);
    const eighty = eachDay('2026-09-01', '2026-09-30').find((d) => toDate.get(d)! >= 0.8 * budget)!;
    const orgId = planted.organization.orgId;
    const spiked = planted.organization.identity(SPIKED_USER).email;

    let dryRun: WatchJson | undefined;
    const { store, days } = await watchDays(
      planted,
      { watch: { spike: SPIKE, budgets: { costCenters: { [COST_CENTER]: budget } } } },
      async (day, _store, args) => {
        if (day !== addDays(SECURITY_DAY, 1)) return;
        // A dry run first: it prints what would fire and records nothing.
        const dry = await cli([...args, '--dry-run'], { env: {} });
        expect(dry.code, dry.err).toBe(0);
        dryRun = JSON.parse(dry.out) as WatchJson;
      },
    );
    const fired = newDays(days);
    const security = [...fired.keys()].find((k) => k.startsWith('security|'))!;
    const revision = planted.organization.controlHistory.find(
      (c) => c.updatedAt === `${SECURITY_DAY}T12:00:00.000Z`,
    )!;
    expect(security).toBe(`security|organization:${orgId}|r${revision.revision}`);
    expect(fired.get(security)).toEqual([addDays(SECURITY_DAY, 1)]);
    expect(fired.get(`spike|user:${spiked}|${SPIKE_DAY}`)).toEqual([addDays(SPIKE_DAY, 1)]);
    const budgetKey = (t: string) => `budget|cost_center:${COST_CENTER}|2026-09|${t}`;
    expect(fired.get(budgetKey('actual-100'))).toEqual([addDays(BUDGET_DAY, 1)]);
    if (eighty < BUDGET_DAY) expect(fired.get(budgetKey('actual-80'))).toEqual([addDays(eighty, 1)]);
    // Every key was new once; nothing fired but the three events (and the forecast's early warnings).
    for (const [key, on] of fired) expect(on, key).toHaveLength(1);
    const expected = new Set([
      security,
      `spike|user:${spiked}|${SPIKE_DAY}`,
      ...['actual-80', 'actual-100', 'forecast-80', 'forecast-100'].map(budgetKey),
    ]);
    for (const key of fired.keys()) expect(expected, key).toContain(key);

    // What the alerts say: figures compared, where to see more, a person's alert marked as such.
    const securityAlert = days.get(addDays(SECURITY_DAY, 1))!.alerts.find((a) => a.key === security)!;
    const before = planted.organization.controlHistory.find((c) => c.revision === revision.revision - 1)!;
    expect(securityAlert.figures).toMatchObject({
      revision: revision.revision,
      updated_at: `${SECURITY_DAY}T12:00:00.000Z`,
      enableAgentShield: `${before.settings.enableAgentShield} -> ${!before.settings.enableAgentShield}`,
    });
    expect(securityAlert.figures.by).toContain(planted.organization.identity(0).email);
    expect(securityAlert.more.sql).toContain('FROM control_revisions');
    const spikeAlert = days.get(addDays(SPIKE_DAY, 1))!.alerts.find((a) => a.rule === 'spike')!;
    expect(spikeAlert).toMatchObject({ person: true, email: spiked, day: SPIKE_DAY, severity: 'warning' });
    expect(spikeAlert.figures.credits).toBe(
      planted.organization.userDay(SPIKED_USER, SPIKE_DAY)!.billable_tokens,
    );
    expect(spikeAlert.figures.multiple as number).toBeGreaterThan(8);
    const over = days.get(addDays(BUDGET_DAY, 1))!.alerts.find((a) => a.key === budgetKey('actual-100'))!;
    expect(over).toMatchObject({
      severity: 'critical',
      person: false,
      figures: { credits_to_date: toDate.get(BUDGET_DAY), budget },
    });

    // The SQL an alert names runs and shows the day the alert is about.
    const shown = await cli(['query', '--store', store, '--format', 'json', spikeAlert.more.sql!]);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain(`"date":"${SPIKE_DAY}"`);

    // The dry run listed the security alert as new, and recorded nothing: the real run still sent it.
    expect(dryRun?.dryRun).toBe(true);
    expect(dryRun?.alerts.filter((a) => a.new).map((a) => a.key)).toEqual([security]);

    // The state is the owner's alone.
    expect(statSync(join(store, '_watch', `org_id=${orgId}`, 'state.json')).mode & 0o777).toBe(0o600);
  }, 240_000);

  it('fires nothing on the same organization without plants and budgets', async () => {
    const { days } = await watchDays(clean, { watch: { spike: SPIKE } });
    expect([...days.values()].flatMap((d) => d.alerts.map((a) => `${a.key} ${a.sentence}`))).toEqual([]);
  }, 240_000);

  it('prints alerts as text, exits 0 with alerts and not 0 when it cannot read the store', async () => {
    const dir = tempDir('orgreport-watch-');
    const store = join(dir, 'store');
    const env = envFor(planted);
    expect(
      (
        await cli(['sync', '--store', store, '--since', '2026-08-01', '--today', '2026-09-03', '--quiet'], {
          env,
        })
      ).code,
    ).toBe(0);
    // Three days later, no new day: the data is stale. `--quiet` (cron) prints nothing of it.
    const quiet = await cli(['watch', '--store', store, '--today', '2026-09-06', '--quiet', '--dry-run'], {
      env: {},
    });
    expect([quiet.code, quiet.out, quiet.err]).toEqual([0, '', '']);
    const text = await cli(['watch', '--store', store, '--today', '2026-09-06'], { env: {} });
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain('new  warning  stale: The store holds no day of organization');
    expect(text.out).toContain(
      `      more: orgreport query --store ${store} "SELECT max(date) AS last_day FROM tokens_daily WHERE org_id = '${planted.organization.orgId}'"`,
    );
    // A second organization in the store: name one, or all.
    const other = await smallOrg({ orgId: 'org_other', orgName: 'Globex' });
    try {
      const synced = await cli(
        [
          'sync',
          '--store',
          store,
          '--since',
          '2026-08-01',
          '--today',
          '2026-09-03',
          '--org-name',
          'Globex',
          '--quiet',
        ],
        {
          env: envFor(other),
        },
      );
      expect(synced.code, synced.err).toBe(0);
    } finally {
      await other.close();
    }
    const ambiguous = await cli(['watch', '--store', store, '--today', '2026-09-04'], { env: {} });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toMatch(
      /the store holds 2 organizations .*choose one with --org, or all with --all-orgs/,
    );
    const one = await cli(['watch', '--store', store, '--today', '2026-09-04', '--org', 'globex', '--json'], {
      env: {},
    });
    expect(one.code, one.err).toBe(0);
    expect((JSON.parse(one.out) as WatchJson).organizations.map((o) => o.id)).toEqual(['org_other']);
    const all = await cli(
      ['watch', '--store', store, '--today', '2026-09-04', '--all-orgs', '--json', '--dry-run'],
      { env: {} },
    );
    expect((JSON.parse(all.out) as WatchJson).organizations.map((o) => o.id).sort()).toEqual(
      [planted.organization.orgId, 'org_other'].sort(),
    );

    const missing = await cli(['watch', '--store', join(dir, 'nothing-here')], { env: {} });
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nothing-here/);
  });
});
