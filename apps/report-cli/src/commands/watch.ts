/**
 * `orgreport watch --store DIR`: the alert rules over the store's history (docs/watch.md), run after
 * the daily sync. It reads each organization's days, control revisions, the credit limits
 * `limits apply` recorded and the sync log, and the directory when one is configured; the rules
 * (`@orgreport/watch`, pure) say what holds; the state in `<store>/_watch/` says what is new. Alerts
 * are not errors: the exit code is 0 whatever fires, and not 0 only when something could not be read.
 */
import { addDays, type IsoDate, monthBounds } from '@orgreport/api-core/dates';
import { scrubText } from '@orgreport/api-core/redact';
import type { Backtest, WatchPerson, WatchRules } from '@orgreport/watch';
import type { ConfigFlags } from '../config/config.ts';
import { type WatchConfig, watchConfig } from '../config/watch-settings.ts';
import { type CommandContext, setUp } from '../context.ts';
import { loadDirectory } from '../directory/read.ts';
import { CliError, EXIT, UsageError } from '../errors.ts';
import type { Reporter } from '../reporter.ts';
import { readLimitRecords, readSyncRuns } from '../watch/inputs.ts';
import { type OrganizationWatch, printBacktest, printWatch } from '../watch/print.ts';
import { readWatchState, writeWatchState } from '../watch/state.ts';

export interface WatchOptions extends ConfigFlags {
  dryRun?: boolean;
  json?: boolean;
  allOrgs?: boolean;
  backtest?: boolean;
}

/** The rules of the config file's `watch` key (its defaults when there is none). */
export function watchRules(config: WatchConfig | undefined): WatchRules {
  const w = config ?? watchConfig.parse(undefined);
  return {
    security: { enabled: w.security },
    budgets: {
      ...(w.budgets.organization !== undefined && { organization: w.budgets.organization }),
      costCenters: w.budgets.costCenters,
      teams: w.budgets.teams,
      users: w.budgets.users,
      fromLimits: w.budgets.fromLimits,
      thresholds: w.budgets.thresholds,
      forecast: w.budgets.forecast,
    },
    spike: { ...w.spike },
    stale: { ...w.stale },
    forecastDays: w.forecastDays,
  };
}

/** The directory's people, with each one's budget from the configured column. */
async function people(file: string | undefined, column: string | undefined): Promise<WatchPerson[]> {
  const directory = await loadDirectory(file);
  if (!directory) {
    if (column)
      throw new UsageError('watch.budgets.directoryColumn: no directory is configured (--directory)');
    return [];
  }
  const name = column?.toLowerCase();
  if (name && !directory.people.some((p) => name in p.attributes)) {
    throw new UsageError(
      `watch.budgets.directoryColumn: the directory ${directory.source} has no column "${column}"`,
    );
  }
  return directory.people.map((p) => {
    const text = name ? (p.attributes[name] ?? '').trim() : '';
    const budget = text === '' ? undefined : Number(text.replaceAll(',', ''));
    if (budget !== undefined && !(Number.isFinite(budget) && budget >= 0)) {
      throw new UsageError(
        `${directory.source}: the budget of ${p.email} in column "${column}" is not a number of credits (got ${JSON.stringify(text)})`,
      );
    }
    return {
      email: p.email,
      team: p.team,
      costCenter: p.costCenter,
      ...(budget !== undefined && { budget }),
    };
  });
}

/** The organizations of the store to watch: `--org` by id or name, all with `--all-orgs`, else the only one. */
async function organizations(
  store: string,
  org: string | undefined,
  allOrgs: boolean | undefined,
  listed: ReadonlyArray<{ name: string; id?: string }>,
): Promise<Array<{ orgId: string; name: string }>> {
  const { listOrganizations } = await import('@orgreport/store');
  const held = (await listOrganizations(store)).sort((a, b) => (a.orgId < b.orgId ? -1 : 1));
  const names = held.map((o) => `${o.name} (${o.orgId})`).join(', ');
  if (held.length === 0)
    throw new UsageError(`the store ${store} holds no organization yet: run orgreport sync first`);
  if (allOrgs) {
    if (org) throw new UsageError('--all-orgs watches every organization of the store: leave out --org');
    return held;
  }
  if (org) {
    const wanted = org.toLowerCase();
    const configured = listed.find((o) => o.name.toLowerCase() === wanted)?.id;
    const found = held.find(
      (o) => o.orgId === org || o.orgId === configured || o.name.toLowerCase() === wanted,
    );
    if (!found)
      throw new UsageError(`--org ${org}: the store holds no such organization (it holds ${names})`);
    return [found];
  }
  if (held.length > 1) {
    throw new UsageError(
      `the store holds ${held.length} organizations (${names}): choose one with --org, or all with --all-orgs`,
    );
  }
  return held;
}

/** The first day the rules look at: two spike windows and a week back, or a forecast window before the month. */
function firstDayRead(today: IsoDate, rules: WatchRules): IsoDate {
  const spikeFrom = addDays(today, -(2 * rules.spike.trailingDays + 9));
  const forecastFrom = addDays(monthBounds(addDays(today, -2).slice(0, 7)).start, -rules.forecastDays);
  return spikeFrom < forecastFrom ? spikeFrom : forecastFrom;
}

/** One organization's watch: read, evaluate, keep the state (not in a dry run). */
async function watchOrganization(
  store: string,
  org: { orgId: string; name: string },
  input: { rules: WatchRules; people: WatchPerson[]; today: IsoDate; now: string; dryRun: boolean },
  reporter: Reporter,
): Promise<OrganizationWatch> {
  const [{ readWatchHistory }, { evaluateWatch }, { diffSettings }] = await Promise.all([
    import('@orgreport/store'),
    import('@orgreport/watch'),
    import('@orgreport/metrics'),
  ]);
  const warn = (line: string) => reporter.warn(line);
  const [history, limits, syncRuns, state] = await Promise.all([
    readWatchHistory(store, org.orgId, {
      since: firstDayRead(input.today, input.rules),
      until: addDays(input.today, -1),
    }),
    readLimitRecords(store, org.orgId, warn),
    readSyncRuns(store, org.orgId, warn),
    readWatchState(store, org.orgId),
  ]);
  const outcome = evaluateWatch({
    history: { ...history, limits, syncRuns },
    people: input.people,
    rules: input.rules,
    state,
    today: input.today,
    now: input.now,
    diff: diffSettings,
  });
  if (!input.dryRun) await writeWatchState(store, outcome.state);
  return { orgId: org.orgId, name: org.name, lastDay: history.held.at(-1)?.end ?? null, ...outcome };
}

/** `watch --backtest`: the forecast's error over each organization's history in the store. */
async function backtest(
  store: string,
  orgs: Array<{ orgId: string; name: string }>,
  rules: WatchRules,
  today: IsoDate,
): Promise<Array<{ orgId: string; name: string } & Backtest>> {
  const [{ readWatchHistory }, { backtestForecast, organizationSeries }] = await Promise.all([
    import('@orgreport/store'),
    import('@orgreport/watch'),
  ]);
  const out: Array<{ orgId: string; name: string } & Backtest> = [];
  for (const org of orgs) {
    const history = await readWatchHistory(store, org.orgId, { until: addDays(today, -1), userDays: false });
    const series = organizationSeries({ ...history, limits: [], syncRuns: [] });
    out.push({ ...org, ...backtestForecast(series.values, rules.forecastDays) });
  }
  return out;
}

/** Runs the watch over the store of `--store`. */
export async function watch(options: WatchOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  if (!config.store) {
    throw new UsageError('no store: give --store DIR (or ORGREPORT_STORE, or "store" in the config file)');
  }
  const store = config.store;
  // What is printed passes through the run's secrets too (a sync error in the log could hold one).
  const stdout = { write: (text: string) => ctx.io.stdout.write(scrubText(text, [...ctx.secrets])) };
  const rules = watchRules(config.watch);
  const orgs = await organizations(store, config.org, options.allOrgs, config.organizations);
  const today = config.today;
  if (options.backtest) {
    if (options.dryRun) throw new UsageError('--backtest only reads the store: it takes no --dry-run');
    const results = await backtest(store, orgs, rules, today);
    printBacktest(stdout, results, Boolean(options.json), started);
    return;
  }
  const directoryPeople = await people(config.directory, config.watch?.budgets.directoryColumn);
  const now = config.now().toISOString();
  const results: OrganizationWatch[] = [];
  const failed: string[] = [];
  for (const org of orgs) {
    try {
      results.push(
        await watchOrganization(
          store,
          org,
          { rules, people: directoryPeople, today, now, dryRun: Boolean(options.dryRun) },
          reporter,
        ),
      );
    } catch (error) {
      // One organization that cannot be read does not hide the others' alerts; the run still fails.
      if (orgs.length === 1) throw error;
      failed.push(`${org.name} (${org.orgId})`);
      reporter.error(`${org.name} (${org.orgId}): ${(error as Error).message}`);
    }
  }
  for (const r of results) for (const note of r.notes) reporter.info(note);
  printWatch(stdout, results, {
    store,
    today,
    dryRun: Boolean(options.dryRun),
    json: Boolean(options.json),
    started,
  });
  if (failed.length > 0) {
    throw new CliError(
      `${failed.length} of ${orgs.length} organizations could not be watched (${failed.join(', ')})`,
      EXIT.failure,
    );
  }
}
