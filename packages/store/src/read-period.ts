/**
 * `readPeriod`: a report period and its comparison period read back from the store as the very
 * {@link Snapshot} a fresh fetch of the same days gives, so `buildReportModel` runs on it unchanged.
 */
import {
  type DayRange,
  type MonthPeriod,
  SNAPSHOT_FORMAT_VERSION,
  type Snapshot,
  USER_DAY_COLUMNS,
  USER_DAY_TEXT_COLUMNS,
  type UserDayCodes,
  type UserDayColumns,
  withUserDayCodes,
} from '@orgreport/api-core';
import { fetchedRangeOf, periodNotes, revisionsInRange } from '@orgreport/snapshot';
import { engineRead } from './damage.ts';
import { type EncodedColumns, Engine, readExpression, sqlString } from './engine.ts';
import { StoreError } from './errors.ts';
import type { StoreLayout } from './layout.ts';
import {
  activityFromRows,
  controlsFromRows,
  hookEventsFromRows,
  orgUsersFromRows,
  productivityFromRows,
  readinessFromRows,
  tokensFromRows,
  toolsFromRows,
} from './rows.ts';
import { datasetSpec } from './schema.ts';
import {
  mergeRowChecks,
  mergeUnknownFields,
  missingSpans,
  type OrgState,
  readState,
  splitByMonth,
} from './state.ts';
import { openStore } from './store-file.ts';

export interface ReadPeriodOptions {
  /** Display name of the organization (default: the name of its last sync, else its id). */
  organizationName?: string;
  /** Include the hook log's events of the days (as a fetch with a hook log does). */
  hookEvents?: boolean;
}

/** Reads one organization's datasets from the partitions of some months. */
class DatasetReader {
  constructor(
    private readonly engine: Engine,
    private readonly layout: StoreLayout,
    private readonly orgId: string,
  ) {}

  /** The months of a dataset the organization has partitions of. */
  months(dataset: string): Promise<string[]> {
    return this.layout.partitionMonths(dataset, this.orgId);
  }

  private files(dataset: string, months: readonly string[]): Promise<string[]> {
    return this.layout.presentFiles(
      this.orgId,
      months.map((m) => this.layout.partitionFile(dataset, this.orgId, m)),
    );
  }

  private select(dataset: string, files: readonly string[], where: string, order: string): string | null {
    if (files.length === 0) return null;
    const spec = datasetSpec(dataset);
    return `SELECT ${spec.columns.map(readExpression).join(', ')} FROM read_parquet([${files.map(sqlString).join(', ')}]) WHERE ${where} ORDER BY ${order}`;
  }

  /** Rows of `dataset` in `months` matching `where`, ordered. */
  async rows(
    dataset: string,
    months: readonly string[],
    where = 'true',
    order = 'ALL',
  ): Promise<Array<Record<string, unknown>>> {
    const files = await this.files(dataset, months);
    const sql = this.select(dataset, files, where, order);
    return sql ? engineRead(this.layout, files, () => this.engine.rows(sql)) : [];
  }

  /** Rows of `dataset` in `months` matching `where`, ordered, read for mostly distinct text (see `Engine.textRows`). */
  async textRows(
    dataset: string,
    months: readonly string[],
    where: string,
    order: string,
  ): Promise<Array<Record<string, unknown>>> {
    const files = await this.files(dataset, months);
    if (files.length === 0) return [];
    return engineRead(this.layout, files, () =>
      this.engine.textRows(
        datasetSpec(dataset).columns,
        `read_parquet([${files.map(sqlString).join(', ')}]) WHERE ${where}`,
        order,
      ),
    );
  }

  /** Columns of `dataset` in `months` matching `where`, ordered (empty columns when none). */
  async columns(
    dataset: string,
    months: readonly string[],
    where: string,
    order: string,
  ): Promise<EncodedColumns> {
    const files = await this.files(dataset, months);
    const spec = datasetSpec(dataset);
    if (files.length === 0)
      return { columns: Object.fromEntries(spec.columns.map((c) => [c.name, []])), codes: {} };
    return engineRead(this.layout, files, () =>
      this.engine.encodedColumns(
        spec.columns,
        `read_parquet([${files.map(sqlString).join(', ')}]) WHERE ${where}`,
        order,
      ),
    );
  }
}

/**
 * The snapshot's `/users` columns of what the store read, with the codes they were made from (see
 * `UserDayCodes`) when every text column and the date came coded.
 */
function userDayColumnsOf({ columns, codes }: EncodedColumns): UserDayColumns {
  const out = {} as UserDayColumns;
  // Copied as properties, not read: the text columns are made when first read (`encodedColumns`).
  for (const c of USER_DAY_COLUMNS) {
    const own = Object.getOwnPropertyDescriptor(columns, c);
    Object.defineProperty(out, c, own ?? { value: [], enumerable: true, writable: true, configurable: true });
  }
  if (!codes.date || USER_DAY_TEXT_COLUMNS.some((c) => !codes[c])) return out;
  const text = Object.fromEntries(USER_DAY_TEXT_COLUMNS.map((c) => [c, codes[c]])) as UserDayCodes['text'];
  return withUserDayCodes(out, { date: codes.date.codes, text });
}

/** A SQL condition: `column` (a DATE) within `range`. */
function within(column: string, range: DayRange): string {
  return `${column} BETWEEN DATE ${sqlString(range.start)} AND DATE ${sqlString(range.end)}`;
}

/** The state of an organization that holds every day of `range`, or an error that says what to run. */
export async function stateHolding(layout: StoreLayout, orgId: string, range: DayRange): Promise<OrgState> {
  const state = await readState(layout, orgId);
  if (!state) {
    throw new StoreError(
      `the store ${layout.label} holds no data of organization ${orgId}; fill it with orgreport sync --store ${layout.label}`,
    );
  }
  const missing = missingSpans(state.days, range);
  if (missing.length > 0) {
    const days = missing.map((s) => (s.start === s.end ? s.start : `${s.start}..${s.end}`)).join(', ');
    throw new StoreError(
      `the store ${layout.label} lacks ${days} of organization ${orgId}; fetch them with orgreport sync --store ${layout.label}`,
    );
  }
  return state;
}

/** Both results, once both promises are settled (no read left running behind an error). */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

/** The datasets of a snapshot other than its user-day rows, read one after the other. */
async function readLists(read: DatasetReader, months: readonly string[], range: DayRange) {
  const dated = (dataset: string) => read.rows(dataset, months, within('date', range), 'date, position');
  const daily = (dataset: string) => read.rows(dataset, months, within('date', range), 'date');
  const tokens = tokensFromRows(await daily('tokens_daily'), await dated('tokens_by_model'));
  const tools = toolsFromRows({
    daily: await daily('tools_daily'),
    byTool: await dated('tools_by_tool'),
    mcp: await dated('mcp_by_server'),
    skills: await dated('skills_by_name'),
    slash: await dated('slash_commands_by_name'),
    hooks: await dated('hooks_by_event'),
    levels: await dated('tool_autonomy_levels'),
  });
  const activity = activityFromRows(await daily('activity_daily'), await dated('activity_by_client'));
  const productivity = productivityFromRows(
    await daily('productivity_daily'),
    await dated('productivity_by_extension'),
    await dated('productivity_by_language'),
  );
  const readinessMonths = await read.months('readiness_reports');
  const readiness = readinessFromRows(
    await read.rows('readiness_reports', readinessMonths, 'true', 'created_at DESC, report_id'),
    await read.rows('readiness_criteria', readinessMonths, 'true', 'report_id, position'),
    await read.rows('readiness_apps', readinessMonths, 'true', 'report_id, position'),
  );
  const latestUsers = (await read.months('org_users')).at(-1);
  const orgUsers = latestUsers
    ? orgUsersFromRows(await read.textRows('org_users', [latestUsers], 'true', 'position'))
    : [];
  const allRevisions = controlsFromRows(
    await read.rows('control_revisions', await read.months('control_revisions'), 'true', 'revision DESC'),
  );
  return { tokens, tools, activity, productivity, readiness, orgUsers, allRevisions };
}

/**
 * The snapshot of `period` (and `comparison`) of organization `orgId` from the store in `root`.
 * Throws {@link StoreError} when the store lacks a day of them.
 *
 * @example
 * const snapshot = await readPeriod('/srv/store', 'org_1', period, comparisonPeriod(period));
 * const model = buildReportModel(snapshot, { generatedAt });
 */
export async function readPeriod(
  root: string,
  orgId: string,
  period: MonthPeriod,
  comparison: MonthPeriod | null,
  options: ReadPeriodOptions = {},
): Promise<Snapshot> {
  const layout = await openStore(root);
  const range = fetchedRangeOf(period, comparison);
  const state = await stateHolding(layout, orgId, range);
  const months = splitByMonth([range]).map((s) => s.start.slice(0, 7));
  const engine = await Engine.open();
  let beside: Engine | undefined;
  try {
    beside = await engine.connect();
    const read = new DatasetReader(engine, layout, orgId);
    // The user-day rows, most of the read's time (mostly the engine's), on one connection; the
    // other datasets meanwhile on another.
    const [userDays, lists] = await both(
      read.columns('user_days', months, within('date', range), 'user_id, date'),
      readLists(new DatasetReader(beside, layout, orgId), months, range),
    );
    const { tokens, tools, activity, productivity, readiness, orgUsers, allRevisions } = lists;

    const findings = months.map((m) => state.months[m]).filter((m) => m !== undefined);
    let unknownFields = mergeUnknownFields({}, state.listsUnknownFields);
    for (const f of findings) unknownFields = mergeUnknownFields(unknownFields, f.unknownFields);
    const rowChecks = findings.reduce((all, f) => mergeRowChecks(all, f.rowChecks), mergeRowChecks());
    const latest = findings.reduce((a, b) => (b.fetchedAt > a.fetchedAt ? b : a), {
      fetchedAt: '',
      toolVersion: '',
    });

    const snapshot: Snapshot = {
      manifest: {
        formatVersion: SNAPSHOT_FORMAT_VERSION,
        organization: { id: orgId, name: options.organizationName ?? state.organizationName },
        period,
        comparison,
        fetchedRange: range,
        fetchedAt: latest.fetchedAt,
        toolVersion: latest.toolVersion,
        source: state.source,
        counts: { requests: 0 },
        checksums: {},
        notes: periodNotes(period, comparison),
        ...(Object.keys(unknownFields).length > 0 && { unknownFields }),
        ...(rowChecks.length > 0 && { rowChecks }),
      },
      tokens,
      tools,
      activity,
      productivity,
      userDays: userDayColumnsOf(userDays),
      orgUsers,
      readiness,
      controls: revisionsInRange(allRevisions, period.end, range.start),
    };
    if (options.hookEvents) {
      snapshot.hookEvents = hookEventsFromRows(
        await read.rows('hook_events', months, within('CAST(recorded_at AS DATE)', range), 'recorded_at'),
      );
    }
    return snapshot;
  } finally {
    beside?.close();
    engine.close();
  }
}
