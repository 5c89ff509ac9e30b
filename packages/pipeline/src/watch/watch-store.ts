/**
 * The watch (`orgreport watch --store DIR`): the alert rules over the store's history
 * (docs/watch.md), run after the daily sync. It reads each organization's days, control revisions,
 * the credit limits `limits apply` recorded and the sync log, and the directory when one is
 * configured; the rules (`@orgreport/watch`, pure) say what holds; the state in `<store>/_watch/`
 * says what is new (of a store in a bucket: objects there, replaced only over the version read).
 * The new alerts go to the routes of the settings' `watch.routes` and `deliver` (routes.ts) through
 * the ledger beside the store (in the bucket: its `_ledger/`), as the reports do. Alerts are not
 * errors; what could not be read (a damaged store, whose alert goes to the organization's routes
 * first) or delivered is the outcome's failure.
 */
import { addDays, type IsoDate, monthBounds } from '@orgreport/api-core/dates';
import type { Identity, PeopleDirectory } from '@orgreport/metrics';
import { DamagedStoreError, StoreError } from '@orgreport/store/errors';
import {
  type Alert,
  type Backtest,
  FIRED_KEPT_DAYS,
  type Forecast,
  type WatchPerson,
  type WatchRules,
  type WatchState,
} from '@orgreport/watch';
import type { RunContext } from '../context.ts';
import {
  checkTargets,
  cliDestinations,
  ledgerPath,
  ledgerStatuses,
  normalTarget,
  sendDeliveries,
  sharedLedger,
} from '../deliver/send-reports.ts';
import { demoDirectory } from '../demo.ts';
import { loadDirectory } from '../directory/read.ts';
import { CliError, EXIT, messageOf, UsageError } from '../errors.ts';
import type { Reporter } from '../reporter.ts';
import { configuredOrgId, requireStore, type Settings } from '../settings.ts';
import { demoUsersOf } from '../snapshot/period.ts';
import { AlertDocuments, type AlertPlan, alertDeliveries, planAlertDeliveries } from './deliver-alerts.ts';
import { readLimitRecords, readSyncRuns } from './inputs.ts';
import { readOutbox, writeOutbox } from './outbox.ts';
import { AlertRouter, type ScopeFunctions, type WatchRoute, watchRoutes } from './routes.ts';
import { readWatchState, writeWatchState } from './state.ts';
import { type WatchConfig, watchConfig } from './watch-settings.ts';

/** What a watch is asked to do besides the settings. */
export interface WatchRequest {
  /** Record and send nothing: say what would fire and where it would go. */
  dryRun?: boolean;
  /** Every organization of the store. */
  allOrgs?: boolean;
  /** The demo organization's directory (its people and budgets) when none is configured. */
  demo?: boolean;
  demoUsers?: string;
}

/** One organization's watch. */
export interface OrganizationWatch {
  orgId: string;
  name: string;
  lastDay: string | null;
  alerts: Alert[];
  forecast: Forecast | null;
  notes: string[];
}

/** What a run's delivery did, read from the ledger before and after it. */
export interface WatchDelivery {
  /** Deliveries planned (alert and target). */
  deliveries: number;
  /** Sent by this run. */
  sent: number;
  /** Found delivered by an earlier run. */
  alreadyDelivered: number;
  /** Found unknown (a run stopped while sending them), sent again or left as `--unknown` says. */
  unknown: number;
  /** The targets (as printed) of deliveries not known to have arrived. */
  failed: string[];
  /** The ledger. */
  ledger: string;
}

/** What a watch found and did: each organization's alerts, what was due, where it went, and the failure to report. */
export interface WatchOutcome {
  store: string;
  today: string;
  dryRun: boolean;
  results: OrganizationWatch[];
  /** The alerts due this run (new, or left undelivered by an earlier run), by organization id. */
  due: ReadonlyMap<string, readonly Alert[]>;
  routes: readonly WatchRoute[];
  /** A target as it may be printed. */
  labelOf: (target: string) => string;
  plan?: AlertPlan;
  delivery?: WatchDelivery;
  /** An organization that could not be read, or a delivery that failed: to throw once the outcome is reported. */
  failure?: unknown;
}

/** The rules of the settings' `watch` key (its defaults when there is none). */
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
function people(directory: PeopleDirectory | undefined, column: string | undefined): WatchPerson[] {
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
      ...(p.validFrom && { validFrom: p.validFrom }),
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

/** One organization's watch as read and evaluated, with what is kept once its alerts are handed on. */
interface Evaluated extends OrganizationWatch {
  /** The state to keep for the next run. */
  state: WatchState;
  /** Everyone its alerts might name: the store's users and the control history's authors. */
  identities: Identity[];
}

/** One organization's watch: read and evaluate (nothing is written here). */
async function watchOrganization(
  store: string,
  org: { orgId: string; name: string },
  input: { rules: WatchRules; people: WatchPerson[]; today: IsoDate; now: string },
): Promise<Evaluated> {
  const [{ readWatchHistory }, { evaluateWatch }, { diffSettings }] = await Promise.all([
    import('@orgreport/store'),
    import('@orgreport/watch'),
    import('@orgreport/metrics'),
  ]);
  const [history, limits, syncRuns, state] = await Promise.all([
    readWatchHistory(store, org.orgId, {
      since: firstDayRead(input.today, input.rules),
      until: addDays(input.today, -1),
    }),
    readLimitRecords(store, org.orgId),
    readSyncRuns(store, org.orgId),
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
  const seen = new Set<string>();
  const identities: Identity[] = [];
  for (const u of history.userDays) {
    const id = `${u.userId}\u0000${u.email ?? ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    identities.push({ id: u.userId, email: u.email });
  }
  for (const c of history.controls) {
    identities.push({ id: c.user.id ?? null, email: c.user.email ?? null, name: c.user.name ?? null });
  }
  return {
    orgId: org.orgId,
    name: org.name,
    lastDay: history.held.at(-1)?.end ?? null,
    ...outcome,
    identities,
  };
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

/** A failure to read what the watch reads: the store's files, the records and state beside them. */
function unreadable(error: unknown): error is Error {
  return error instanceof StoreError || (error instanceof CliError && !(error instanceof UsageError));
}

/** The store's first damaged file (after a warning for each other one); undefined when it is whole. */
async function storeDamage(store: string, reporter: Reporter): Promise<DamagedStoreError | undefined> {
  const { checkStore } = await import('@orgreport/store');
  const [first, ...others] = (await checkStore(store)).damaged;
  for (const d of others) reporter.warn(`the store is damaged too: ${d.file} ${d.problem}`);
  return first;
}

/**
 * The organizations a damaged store was to be watched for: those it lists, or, when it cannot list
 * them, those its damaged file belongs to or the configuration names.
 */
async function damagedOrganizations(
  damage: DamagedStoreError,
  listed: () => Promise<Array<{ orgId: string; name: string }>>,
  config: Settings,
): Promise<Array<{ orgId: string; name: string }>> {
  try {
    return await listed();
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const fromFile = /(?:^|\/)org_id=([^/]+?)(?:\.json)?(?:\/|$)/.exec(damage.file)?.[1];
    const orgId = fromFile ? decodeURIComponent(fromFile) : (configuredOrgId(config) ?? 'unknown');
    return [{ orgId, name: config.organizationName ?? orgId }];
  }
}

/** The alert of an organization whose store cannot be read. */
async function unreadableAlert(org: { orgId: string }, error: Error, today: IsoDate): Promise<Alert> {
  const { unreadableStoreFinding } = await import('@orgreport/watch');
  const why =
    error instanceof DamagedStoreError
      ? { file: error.file, problem: error.problem, remedy: error.remedy }
      : { problem: messageOf(error) };
  return { ...unreadableStoreFinding(org.orgId, today, why), new: true };
}

/** The routes of the run, every target checked, and the router that reads them against the directory. */
async function alertRouting(
  config: Settings,
  directory: PeopleDirectory | undefined,
  ctx: RunContext,
): Promise<{ routes: WatchRoute[]; router: AlertRouter | undefined; labelOf: (target: string) => string }> {
  const fns: ScopeFunctions = await import('@orgreport/metrics');
  let routes: WatchRoute[];
  try {
    routes = watchRoutes(config.watch?.routes ?? [], config.deliver, fns.parseScope, normalTarget);
  } catch (error) {
    throw new UsageError(`watch.routes: ${(error as Error).message}`, { cause: error });
  }
  if (routes.length === 0) return { routes, router: undefined, labelOf: (t) => t };
  // The destinations of the configured packages (`destinations`) too, as the delivery step loads them.
  const packages = { names: config.destinations, cwd: ctx.io.cwd };
  await checkTargets(
    routes.flatMap((r) => r.to),
    config,
    ctx,
  );
  const destinations = await cliDestinations(packages);
  const labelOf = (target: string) => destinations.destinationFor(target).label;
  // Alerts are about days up to the one before today; an outbox keeps them as long as the state does.
  const range = { start: addDays(config.today, -FIRED_KEPT_DAYS), end: config.today };
  let index: ReturnType<ScopeFunctions['indexDirectory']> | undefined;
  if (directory) {
    try {
      index = fns.indexDirectory(directory, range, {
        managers: routes.some((r) => r.scope.kind === 'manager'),
      });
    } catch (error) {
      throw new UsageError((error as Error).message, { cause: error });
    }
  }
  const router = new AlertRouter(routes, { index, minGroupSize: config.minGroupSize, fns });
  return { routes, router, labelOf };
}

/** The alerts due of each organization: the new ones and those an earlier run left in the outbox. */
function dueAlerts(found: readonly Alert[], outbox: readonly Alert[]): Alert[] {
  const fresh = found.filter((a) => a.new);
  const keys = new Set(fresh.map((a) => a.key));
  return [...fresh, ...outbox.filter((a) => !keys.has(a.key))];
}

/**
 * Delivers the plan through the delivery step of the reports. What happened is read from the ledger
 * before and after (so a run that fails part-way still says which alerts went out); a failure is
 * returned, to be thrown once the run's output is printed.
 */
async function deliverPlan(
  plan: AlertPlan,
  config: Settings,
  reporter: Reporter,
  ctx: RunContext,
): Promise<{ delivery: WatchDelivery; undelivered: Set<string>; error?: unknown }> {
  const [{ deliveryKey, printableLedgerUrl }, { alertMessage }] = await Promise.all([
    import('@orgreport/deliver'),
    import('@orgreport/watch'),
  ]);
  const destinations = await cliDestinations({ names: config.destinations, cwd: ctx.io.cwd });
  const documents = new AlertDocuments();
  const deliveries = alertDeliveries(plan.deliveries, {
    keyOf: deliveryKey,
    labelOf: (target) => destinations.destinationFor(target).label,
    stores: (target) => Boolean(destinations.destinationFor(target).destination.stores),
    message: alertMessage,
    documents,
  });
  // With a store in a bucket and no --ledger, the shared ledger is the bucket's `_ledger/`.
  const shared = sharedLedger(config);
  const ledger = shared ? printableLedgerUrl(shared) : ledgerPath(config);
  const keys = deliveries.map((d) => d.key);
  const before = await ledgerStatuses(config, ctx, keys);
  const was = new Map(deliveries.map((d) => [d.key, before(d.key)]));
  let error: unknown;
  try {
    if (deliveries.length > 0) await sendDeliveries(deliveries, { config, reporter, ctx });
  } catch (caught) {
    error = caught;
  } finally {
    await documents.close();
  }
  const after = deliveries.length > 0 ? await ledgerStatuses(config, ctx, keys) : before;
  const delivery: WatchDelivery = {
    deliveries: deliveries.length,
    sent: 0,
    alreadyDelivered: 0,
    unknown: 0,
    failed: [],
    ledger,
  };
  // An alert stays in the outbox until each of its deliveries is known to have arrived (or, with
  // --unknown skip, is left as unknown on purpose).
  const undelivered = new Set<string>();
  deliveries.forEach((d, i) => {
    const then = was.get(d.key);
    const now = after(d.key);
    if (then === 'sent') delivery.alreadyDelivered++;
    else if (now === 'sent') delivery.sent++;
    if (then === 'unknown') delivery.unknown++;
    const left = now === 'unknown' && config.unknownDeliveries === 'skip';
    if (now !== 'sent' && !left) {
      undelivered.add(plan.deliveries[i]!.alert.key);
      delivery.failed.push(d.recipient);
    }
  });
  return { delivery, undelivered, ...(error !== undefined && { error }) };
}

/** An organization that could not be watched, and why. */
interface Failure {
  org: { orgId: string; name: string };
  error: Error;
}

/**
 * Watches each organization; one that cannot be read (or every one, when the store is damaged)
 * does not hide the others' alerts: it gets the alert of an unreadable store instead, and the run
 * fails once the others are done.
 */
async function watchEach(
  store: string,
  orgs: ReadonlyArray<{ orgId: string; name: string }>,
  damage: DamagedStoreError | undefined,
  input: { rules: WatchRules; people: WatchPerson[]; today: IsoDate; now: string },
  reporter: Reporter,
): Promise<{ results: OrganizationWatch[]; evaluated: Evaluated[]; failures: Failure[] }> {
  const results: OrganizationWatch[] = [];
  const evaluated: Evaluated[] = [];
  const failures: Failure[] = [];
  for (const org of orgs) {
    try {
      if (damage) throw damage;
      const one = await watchOrganization(store, org, input);
      evaluated.push(one);
      results.push(one);
    } catch (error) {
      if (!unreadable(error)) throw error;
      failures.push({ org, error });
      if (orgs.length > 1 && !damage) reporter.error(`${org.name} (${org.orgId}): ${messageOf(error)}`);
      const alert = await unreadableAlert(org, error, input.today);
      results.push({ ...org, lastDay: null, alerts: [alert], forecast: null, notes: [] });
    }
  }
  return { results, evaluated, failures };
}

/**
 * Keeps what the run found and hands its alerts on: the outbox of each organization (the alerts
 * due), then its state, then the deliveries, then the outbox again without what arrived. A dry run
 * keeps and sends nothing.
 */
async function keepAndDeliver(
  store: string,
  found: { evaluated: readonly Evaluated[]; due: ReadonlyMap<string, Alert[]> },
  plan: AlertPlan | undefined,
  run: { config: Settings; reporter: Reporter; ctx: RunContext },
): Promise<{ delivery?: WatchDelivery; error?: unknown }> {
  for (const e of found.evaluated) {
    // The outbox first: once the state says an alert was sent, only the outbox still holds it.
    if (plan) await writeOutbox(store, e.orgId, found.due.get(e.orgId) ?? []);
    await writeWatchState(store, e.state);
  }
  if (!plan) return {};
  const outcome = await deliverPlan(plan, run.config, run.reporter, run.ctx);
  for (const e of found.evaluated) {
    const left = (found.due.get(e.orgId) ?? []).filter((a) => outcome.undelivered.has(a.key));
    await writeOutbox(store, e.orgId, left);
  }
  return outcome;
}

/**
 * Runs the watch over the store of `settings.store`: reads and evaluates each organization, keeps
 * what it found and delivers the alerts due (nothing kept or sent on a dry run). An organization
 * that could not be read, or a delivery that failed, is the outcome's `failure`: the caller reports
 * the outcome first, then throws it.
 */
export async function watchStore(
  config: Settings,
  options: WatchRequest,
  ctx: RunContext,
  reporter: Reporter,
): Promise<WatchOutcome> {
  // A store in a bucket is read through the store's cache; the watch's state and outbox are
  // objects in it (watch/kept-files.ts), the alerts' ledger its `_ledger/` unless --ledger says.
  const store = requireStore(config);
  const rules = watchRules(config.watch);
  const today = config.today;
  const listed = () => organizations(store, config.org, options.allOrgs, config.organizations);
  const demoUsers = demoUsersOf(options);
  const directory =
    (await loadDirectory(config.directory)) ??
    (demoUsers !== undefined ? await demoDirectory(demoUsers, today) : undefined);
  const directoryPeople = people(directory, config.watch?.budgets.directoryColumn);
  // Routes and targets are read before the store: a bad one is an input error, nothing sent.
  const { routes, router, labelOf } = await alertRouting(config, directory, ctx);
  const dryRun = Boolean(options.dryRun);

  // A store the watch cannot read fails the run, after its alert went to the organization's routes.
  const damage = await storeDamage(store, reporter);
  const orgs = damage ? await damagedOrganizations(damage, listed, config) : await listed();
  const { results, evaluated, failures } = await watchEach(
    store,
    orgs,
    damage,
    { rules, people: directoryPeople, today, now: config.now().toISOString() },
    reporter,
  );
  for (const r of results) for (const note of r.notes) reporter.info(note);

  // What is due: the new alerts, those an earlier run left undelivered, the unreadable stores'.
  const due = new Map<string, Alert[]>();
  for (const r of results) {
    const readable = evaluated.some((e) => e.orgId === r.orgId);
    const left = router && readable ? await readOutbox(store, r.orgId, today, (l) => reporter.warn(l)) : [];
    due.set(r.orgId, dueAlerts(r.alerts, left));
  }
  const identities: Identity[] = [
    ...evaluated.flatMap((e) => e.identities),
    ...(directory?.people ?? []).flatMap((p) => [{ email: p.email }, { email: p.manager }]),
  ];
  const plan = router ? planAlertDeliveries([...due.values()].flat(), router, identities) : undefined;
  const { delivery, error } = dryRun
    ? {}
    : await keepAndDeliver(store, { evaluated, due }, plan, { config, reporter, ctx });
  let failure: unknown = error;
  if (failures.length > 0) {
    if (error !== undefined) reporter.error(messageOf(error));
    failure = damage
      ? damage
      : orgs.length === 1
        ? failures[0]!.error
        : new CliError(
            `${failures.length} of ${orgs.length} organizations could not be watched (${failures.map((f) => `${f.org.name} (${f.org.orgId})`).join(', ')})`,
            EXIT.failure,
          );
  }
  return {
    store,
    today,
    dryRun,
    results,
    due,
    routes,
    labelOf,
    ...(plan && { plan }),
    ...(delivery && { delivery }),
    ...(failure !== undefined && { failure }),
  };
}

/** `--backtest`: the forecast's error over the history of each organization the settings choose. */
export async function backtestStore(
  config: Settings,
  options: Pick<WatchRequest, 'allOrgs'>,
): Promise<Array<{ orgId: string; name: string } & Backtest>> {
  const store = requireStore(config);
  const orgs = await organizations(store, config.org, options.allOrgs, config.organizations);
  return backtest(store, orgs, watchRules(config.watch), config.today);
}
