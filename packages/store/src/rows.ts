/**
 * A snapshot's datasets as the store's rows, and back: {@link rowsOfSnapshot} flattens every list of
 * a snapshot into the long tables of schema.ts (columns, plus the month each row belongs to), and
 * the `*FromRows` functions rebuild the snapshot's objects from rows read back, in the API's shape.
 */
import {
  type ActivityDay,
  type ControlChange,
  type HookEvent,
  type OrgUser,
  type ProductivityDay,
  type ReadinessReport,
  type Snapshot,
  type TokensDay,
  type ToolsDay,
  USER_DAY_COLUMNS,
} from '@orgreport/api-core';
import { dayOf } from '@orgreport/snapshot';
import { DATASETS, type DatasetName } from './schema.ts';

/** Rows of one dataset as columns, with the month (`YYYY-MM`) of each row. */
export interface RowTable {
  columns: Record<string, unknown[]>;
  months: string[];
  length: number;
}

/** A hook event as the hook log holds it. */
export type RecordedHookEvent = HookEvent & { recorded_at?: string };

/** Collects row objects into a {@link RowTable} over `columns`. */
class TableBuilder {
  readonly columns: Record<string, unknown[]>;
  readonly months: string[] = [];
  constructor(names: readonly string[]) {
    this.columns = Object.fromEntries(names.map((n) => [n, []]));
  }
  add(month: string, row: Record<string, unknown>): void {
    for (const [name, values] of Object.entries(this.columns)) values.push(row[name] ?? null);
    this.months.push(month);
  }
  get table(): RowTable {
    return { columns: this.columns, months: this.months, length: this.months.length };
  }
}

const COLUMN_NAMES = Object.fromEntries(
  DATASETS.map((d) => [d.name, d.columns.map((c) => c.name)]),
) as Record<DatasetName, string[]>;

function builder(name: DatasetName): TableBuilder {
  return new TableBuilder(COLUMN_NAMES[name] ?? []);
}

const monthOfDay = (day: string) => day.slice(0, 7);

/** A day's list of named items as rows with their position. */
function addList<T extends object>(
  into: TableBuilder,
  day: string,
  items: readonly T[] | undefined,
  row: (item: T) => Record<string, unknown>,
): void {
  (items ?? []).forEach((item, i) => {
    into.add(monthOfDay(day), { date: day, position: i, ...row(item) });
  });
}

/** An object keyed by name (a client, an autonomy level) as rows with their position. */
function addRecord(
  into: TableBuilder,
  day: string,
  record: Record<string, unknown> | undefined,
  key: string,
  value: string,
): void {
  Object.entries(record ?? {}).forEach(([name, n], i) => {
    into.add(monthOfDay(day), { date: day, position: i, [key]: name, [value]: n });
  });
}

function tokensRows(days: readonly TokensDay[]): Partial<Record<DatasetName, RowTable>> {
  const daily = builder('tokens_daily');
  const byModel = builder('tokens_by_model');
  for (const d of days) {
    daily.add(monthOfDay(d.date), d);
    addList(byModel, d.date, d.by_model, (m) => m);
  }
  return { tokens_daily: daily.table, tokens_by_model: byModel.table };
}

function toolsRows(days: readonly ToolsDay[]): Partial<Record<DatasetName, RowTable>> {
  const daily = builder('tools_daily');
  const byTool = builder('tools_by_tool');
  const mcp = builder('mcp_by_server');
  const skills = builder('skills_by_name');
  const slash = builder('slash_commands_by_name');
  const hooks = builder('hooks_by_event');
  const levels = builder('tool_autonomy_levels');
  for (const d of days) {
    daily.add(monthOfDay(d.date), d);
    addList(byTool, d.date, d.by_tool, (t) => t);
    addList(mcp, d.date, d.mcp_by_server, (s) => s);
    addList(skills, d.date, d.skills_by_name, (s) => s);
    addList(slash, d.date, d.slash_commands_by_name, (s) => s);
    addList(hooks, d.date, d.hooks_by_event, (h) => h);
    addRecord(levels, d.date, d.tool_autonomy_level_ratio, 'level', 'ratio');
  }
  return {
    tools_daily: daily.table,
    tools_by_tool: byTool.table,
    mcp_by_server: mcp.table,
    skills_by_name: skills.table,
    slash_commands_by_name: slash.table,
    hooks_by_event: hooks.table,
    tool_autonomy_levels: levels.table,
  };
}

function activityRows(days: readonly ActivityDay[]): Partial<Record<DatasetName, RowTable>> {
  const daily = builder('activity_daily');
  const byClient = builder('activity_by_client');
  for (const d of days) {
    daily.add(monthOfDay(d.date), d);
    addRecord(byClient, d.date, d.daily_active_users_by_client, 'client', 'daily_active_users');
  }
  return { activity_daily: daily.table, activity_by_client: byClient.table };
}

function productivityRows(days: readonly ProductivityDay[]): Partial<Record<DatasetName, RowTable>> {
  const daily = builder('productivity_daily');
  const ext = builder('productivity_by_extension');
  const lang = builder('productivity_by_language');
  for (const d of days) {
    daily.add(monthOfDay(d.date), d);
    addList(ext, d.date, d.by_extension, (e) => e);
    addList(lang, d.date, d.by_language, (l) => l);
  }
  return {
    productivity_daily: daily.table,
    productivity_by_extension: ext.table,
    productivity_by_language: lang.table,
  };
}

/** The month (UTC) of a Unix-ms instant. */
function monthOfMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

function readinessRows(reports: readonly ReadinessReport[]): Partial<Record<DatasetName, RowTable>> {
  const rows = builder('readiness_reports');
  const criteria = builder('readiness_criteria');
  const apps = builder('readiness_apps');
  for (const r of reports) {
    const month = monthOfMs(r.createdAt);
    rows.add(month, {
      report_id: r.reportId,
      created_at: r.createdAt,
      repo_url: r.repoUrl,
      commit_hash: r.commitHash,
      branch: r.branch,
      has_local_changes: r.hasLocalChanges,
      has_non_remote_commits: r.hasNonRemoteCommits,
      model_id: r.modelUsed?.id,
      model_reasoning_effort: r.modelUsed?.reasoningEffort,
      agent_version: r.agentVersion,
    });
    Object.entries(r.report ?? {}).forEach(([criterion_id, c], position) => {
      criteria.add(month, { report_id: r.reportId, position, criterion_id, ...c });
    });
    Object.entries(r.apps ?? {}).forEach(([app_path, a], position) => {
      apps.add(month, { report_id: r.reportId, position, app_path, description: a.description });
    });
  }
  return { readiness_reports: rows.table, readiness_criteria: criteria.table, readiness_apps: apps.table };
}

function controlRows(changes: readonly ControlChange[], fallbackMonth: string): RowTable {
  const rows = builder('control_revisions');
  for (const c of changes) {
    const day = dayOf(c.updatedAt);
    rows.add(day ? monthOfDay(day) : fallbackMonth, {
      revision: c.revision,
      updated_at: c.updatedAt,
      user_id: c.user?.id,
      user_email: c.user?.email,
      user_name: c.user?.name,
      settings: JSON.stringify(c.settings),
    });
  }
  return rows.table;
}

function orgUserRows(users: readonly OrgUser[], asOf: string): RowTable {
  const rows = builder('org_users');
  users.forEach((u, position) => {
    rows.add(monthOfDay(asOf), {
      as_of: asOf,
      position,
      id: u.id,
      email: u.email,
      created_at: u.createdAt,
      first_name: u.firstName,
      last_name: u.lastName,
      last_sign_in_at: u.lastSignInAt,
      metadata: u.metadata === undefined ? null : JSON.stringify(u.metadata),
    });
  });
  return rows.table;
}

function hookEventRows(events: readonly RecordedHookEvent[]): RowTable {
  const rows = builder('hook_events');
  for (const e of events) {
    const t = e.recorded_at === undefined ? Number.NaN : Date.parse(e.recorded_at);
    if (Number.isNaN(t)) continue; // no day to file it under
    rows.add(monthOfMs(t), { ...e, recorded_at: t });
  }
  return rows.table;
}

function userDayRows(snapshot: Snapshot): RowTable {
  const columns = Object.fromEntries(USER_DAY_COLUMNS.map((c) => [c, snapshot.userDays[c] as unknown[]]));
  const months = snapshot.userDays.date.map(monthOfDay);
  return { columns, months, length: months.length };
}

/** What a snapshot holds beyond its dated rows, for {@link rowsOfSnapshot}. */
export interface RowsOptions {
  /** The lists (organization users, readiness reports) were fetched: their datasets are produced. */
  lists: boolean;
  /** The day the lists were fetched (`org_users.as_of`). */
  asOf: string;
}

/**
 * Every dataset's rows of a snapshot. Datasets the snapshot did not fetch are absent: the lists
 * unless `lists`, the hook events unless the snapshot has a hook log.
 */
export function rowsOfSnapshot(
  snapshot: Snapshot,
  options: RowsOptions,
): Partial<Record<DatasetName, RowTable>> {
  const lastMonth = snapshot.manifest.fetchedRange.end.slice(0, 7);
  return {
    user_days: userDayRows(snapshot),
    ...tokensRows(snapshot.tokens),
    ...toolsRows(snapshot.tools),
    ...activityRows(snapshot.activity),
    ...productivityRows(snapshot.productivity),
    control_revisions: controlRows(snapshot.controls, lastMonth),
    ...(options.lists && {
      ...readinessRows(snapshot.readiness),
      org_users: orgUserRows(snapshot.orgUsers, options.asOf),
    }),
    ...(snapshot.hookEvents && { hook_events: hookEventRows(snapshot.hookEvents) }),
  };
}

// ---------------------------------------------------------------------------------------------
// Back from rows (as read from the store: plain objects, nulls for missing values).

type Row = Record<string, unknown>;

/** `row` without its null members and without `drop` (the API omits a field rather than sending null). */
function present(row: Row, drop: readonly string[] = []): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row))
    if (v !== null && v !== undefined && !drop.includes(k)) out[k] = v;
  return out;
}

/** Groups rows by `key`, keeping their order. */
export function groupBy(rows: readonly Row[], key: string): Map<unknown, Row[]> {
  const out = new Map<unknown, Row[]>();
  for (const r of rows) {
    const k = r[key];
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

const LIST_FIELDS = ['date', 'position'];

function items(groups: Map<unknown, Row[]>, date: unknown): Row[] {
  return (groups.get(date) ?? []).map((r) => present(r, LIST_FIELDS));
}

function record(
  groups: Map<unknown, Row[]>,
  date: unknown,
  key: string,
  value: string,
): Record<string, number> {
  return Object.fromEntries((groups.get(date) ?? []).map((r) => [r[key], r[value]]));
}

/** `/tokens` days from `tokens_daily` and `tokens_by_model` rows (each ordered by date, position). */
export function tokensFromRows(daily: Row[], byModel: Row[]): TokensDay[] {
  const models = groupBy(byModel, 'date');
  return daily.map((d) => ({ ...present(d), by_model: items(models, d.date) }) as TokensDay);
}

/** `/tools` days from their rows. */
export function toolsFromRows(lists: {
  daily: Row[];
  byTool: Row[];
  mcp: Row[];
  skills: Row[];
  slash: Row[];
  hooks: Row[];
  levels: Row[];
}): ToolsDay[] {
  const g = {
    byTool: groupBy(lists.byTool, 'date'),
    mcp: groupBy(lists.mcp, 'date'),
    skills: groupBy(lists.skills, 'date'),
    slash: groupBy(lists.slash, 'date'),
    hooks: groupBy(lists.hooks, 'date'),
    levels: groupBy(lists.levels, 'date'),
  };
  return lists.daily.map(
    (d) =>
      ({
        ...present(d),
        by_tool: items(g.byTool, d.date),
        mcp_by_server: items(g.mcp, d.date),
        skills_by_name: items(g.skills, d.date),
        slash_commands_by_name: items(g.slash, d.date),
        hooks_by_event: items(g.hooks, d.date),
        tool_autonomy_level_ratio: record(g.levels, d.date, 'level', 'ratio'),
      }) as ToolsDay,
  );
}

/** `/activity` days from their rows. */
export function activityFromRows(daily: Row[], byClient: Row[]): ActivityDay[] {
  const clients = groupBy(byClient, 'date');
  return daily.map(
    (d) =>
      ({
        ...present(d),
        daily_active_users_by_client: record(clients, d.date, 'client', 'daily_active_users'),
      }) as ActivityDay,
  );
}

/** `/productivity` days from their rows. */
export function productivityFromRows(daily: Row[], ext: Row[], lang: Row[]): ProductivityDay[] {
  const e = groupBy(ext, 'date');
  const l = groupBy(lang, 'date');
  return daily.map(
    (d) =>
      ({ ...present(d), by_extension: items(e, d.date), by_language: items(l, d.date) }) as ProductivityDay,
  );
}

/** Readiness reports from their rows (reports in the order wanted; criteria and apps by position). */
export function readinessFromRows(reports: Row[], criteria: Row[], apps: Row[]): ReadinessReport[] {
  const c = groupBy(criteria, 'report_id');
  const a = groupBy(apps, 'report_id');
  return reports.map((r) => {
    const report: Row = {
      reportId: r.report_id,
      createdAt: r.created_at,
      repoUrl: r.repo_url,
      apps: Object.fromEntries(
        (a.get(r.report_id) ?? []).map((x) => [
          x.app_path,
          present(x, ['report_id', 'position', 'app_path']),
        ]),
      ),
      report: Object.fromEntries(
        (c.get(r.report_id) ?? []).map((x) => [
          x.criterion_id,
          present(x, ['report_id', 'position', 'criterion_id']),
        ]),
      ),
      ...present({
        commitHash: r.commit_hash,
        branch: r.branch,
        hasLocalChanges: r.has_local_changes,
        hasNonRemoteCommits: r.has_non_remote_commits,
        agentVersion: r.agent_version,
      }),
    };
    if (r.model_id !== null) report.modelUsed = { id: r.model_id, reasoningEffort: r.model_reasoning_effort };
    return report as ReadinessReport;
  });
}

/** Control revisions from their rows. */
export function controlsFromRows(rows: Row[]): ControlChange[] {
  return rows.map((r) => ({
    revision: r.revision as number,
    settings: JSON.parse(r.settings as string),
    user: present({ id: r.user_id, email: r.user_email, name: r.user_name }),
    updatedAt: r.updated_at as string,
  }));
}

/** Organization users from their rows. */
export function orgUsersFromRows(rows: Row[]): OrgUser[] {
  return rows.map(
    (r) =>
      present({
        id: r.id,
        email: r.email,
        createdAt: r.created_at,
        metadata: r.metadata === null ? null : JSON.parse(r.metadata as string),
        firstName: r.first_name,
        lastName: r.last_name,
        lastSignInAt: r.last_sign_in_at,
      }) as OrgUser,
  );
}

/** Hook events from their rows (`recorded_at` in Unix ms). */
export function hookEventsFromRows(rows: Row[]): RecordedHookEvent[] {
  return rows.map(
    (r) =>
      ({
        ...present(r, ['recorded_at']),
        recorded_at: new Date(r.recorded_at as number).toISOString(),
      }) as RecordedHookEvent,
  );
}
