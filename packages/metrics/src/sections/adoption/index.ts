/**
 * Adoption: active users, DAU, WAU and trailing MAU, and DAU by client; the workbook's Users, User
 * languages and Dormant seats sheets; the check for client types the API specification does not list.
 */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { field } from '../../internal/sheet-columns.ts';
import { clientDau, clientName } from '../../internal/transforms/clients.ts';
import { unknownClients } from '../../internal/transforms/schema-drift.ts';
import { listSheet } from '../../list-sheet.ts';
import type { DataQualityFinding, DormantSeat, UserMonthRow } from '../../model.ts';
import type { SheetColumn } from '../../section.ts';
import { builtinSection } from '../builtin.ts';

/** The columns that identify a user, on the `Users` sheet and on the sheet of their languages. */
const USER_KEY: SheetColumn<UserMonthRow>[] = [field('user_id', 'text'), field('email', 'text')];

const NO_LIMITS = 'no credit limit is known for any user: the report was built without credit limits';

/** A flag of the user's limit: empty for a user without a limit, for whom it is not applicable. */
function limitFlag(key: 'over_80' | 'over_100'): SheetColumn<UserMonthRow> {
  return {
    header: key,
    kind: 'boolean',
    value: (u) => (u.credit_limit === null ? null : u[key]),
    emptyReason: NO_LIMITS,
  };
}

/** Columns of the `Users` sheet (per-user month totals; the languages are on `User languages`). */
function userColumns(): SheetColumn<UserMonthRow>[] {
  return [
    ...USER_KEY,
    field('name', 'text'),
    // Where the user's money goes (at the period's end): a pivot by cost center adds up to the bills.
    { header: 'team', kind: 'text', value: (u) => u.team ?? null },
    { header: 'cost_center', kind: 'text', value: (u) => u.cost_center ?? null },
    field('active_days', 'integer'),
    field('credits', 'integer'),
    field('cost', 'currency', 'credit_cost'),
    field('tool_calls', 'integer'),
    field('sessions', 'integer'),
    field('messages', 'integer'),
    field('user_messages', 'integer'),
    field('files_created', 'integer'),
    field('files_edited', 'integer'),
    field('git_commits', 'integer'),
    field('git_prs_created', 'integer'),
    field('mcp_calls', 'integer'),
    field('skill_calls', 'integer'),
    field('slash_commands', 'integer'),
    field('hooks', 'integer'),
    field('primary_model', 'text'),
    field('primary_model_tier', 'text'),
    field('primary_delegation', 'text'),
    field('autonomy', 'decimal'),
    { ...field<UserMonthRow, 'credit_limit'>('credit_limit', 'integer'), emptyReason: NO_LIMITS },
    { ...field<UserMonthRow, 'limit_utilization'>('limit_utilization', 'share'), emptyReason: NO_LIMITS },
    limitFlag('over_80'),
    limitFlag('over_100'),
  ];
}

/** The `User languages` sheet: one row per user and language, most days first (rank 1). */
const userLanguages = listSheet({
  name: 'User languages',
  rows: (model) => model.users,
  key: USER_KEY,
  items: (user) => user.languages.map((language, i) => ({ rank: i + 1, language })),
  columns: [
    { header: 'rank', kind: 'level', value: (l) => l.rank },
    { header: 'language', kind: 'text', value: (l) => l.language },
  ],
});

/** A dormant seat as the model lists it. */

/** Columns of the `Dormant seats` sheet (every seat without activity in the period, reclaim candidates flagged). */
function dormantSeatColumns(): SheetColumn<DormantSeat>[] {
  return [
    field('id', 'text', 'user_id'),
    field('email', 'text'),
    field('name', 'text'),
    field('created_at', 'datetime'),
    field('last_active', 'date'),
    field('last_sign_in', 'datetime'),
    field('reclaim', 'boolean'),
  ];
}

export const adoption = builtinSection('clients', {
  id: 'adoption',
  title: 'Adoption',
  // DAU by client exists for the whole organization only: a scope has none (its context page shows it).
  compute: (context) => (context.scope ? [] : clientDau(runOf(context).rows.activity)),
  organizationContext: (organization) => [
    {
      id: 'clients',
      title: 'Average daily active users by client',
      rows: organization.clients.map((c) => ({
        label: clientName(c.client),
        value: c.avg_dau,
        kind: 'decimal' as const,
      })),
    },
  ],
  checks: (context) =>
    [unknownClients(runOf(context).rows.activity)].filter((f): f is DataQualityFinding => f !== null),
  definitions: [
    {
      id: 'active_users',
      term: 'Active users',
      text: 'Distinct user_id among the period\u2019s per-user rows (/users) with tool calls, messages or sessions above 0. Distinct counts are never summed across days or weeks.',
    },
    {
      id: 'dau',
      term: 'Average and peak DAU, stickiness',
      text: 'Average DAU = mean of daily_active_users over the days of the span that have activity data; peak DAU = their maximum. Stickiness = average DAU / active users of the month.',
    },
    {
      id: 'mau_trailing_30d',
      term: 'Trailing 30-day active users',
      text: 'The API\u2019s monthly_active_users on the period\u2019s last day: users active in the 30 days up to that day, not the month\u2019s active users.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./adoption.hbs', import.meta.url)) },
  sheets: [
    { name: 'Users', columns: userColumns, rows: (model) => model.users },
    userLanguages,
    { name: 'Dormant seats', columns: dormantSeatColumns, rows: (model) => model.seats.dormant_users },
  ],
});
