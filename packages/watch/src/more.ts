/**
 * Where an alert's reader sees more: SQL for `orgreport query` over the store's datasets (their
 * columns in docs/store.md), written so that it can be pasted as is, and the report's documents.
 */
import type { IsoDate } from '@orgreport/api-core/dates';
import type { ScopeSeries } from './series.ts';

/** A SQL string literal. */
export const sqlText = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** Members listed in a query at most; a larger team or cost center points at the report instead. */
export const MAX_QUERY_MEMBERS = 200;

/**
 * The SQL of a scope's credits per day from `start` to `end`, or undefined when the scope is a team
 * or cost center too large to list its members.
 */
export function creditsQuery(
  orgId: string,
  series: ScopeSeries,
  start: IsoDate,
  end: IsoDate,
): string | undefined {
  const org = `org_id = ${sqlText(orgId)}`;
  const days = `date BETWEEN DATE ${sqlText(start)} AND DATE ${sqlText(end)}`;
  const { scope } = series;
  if (scope.kind === 'organization') {
    return `SELECT date, billable_tokens AS credits FROM tokens_daily WHERE ${org} AND ${days} ORDER BY date`;
  }
  if (scope.kind === 'user') {
    const who = series.email
      ? `lower(user_email) = ${sqlText(series.email)}`
      : `user_id = ${sqlText(series.userId ?? scope.name)}`;
    return `SELECT date, billable_tokens AS credits FROM user_days WHERE ${org} AND ${who} AND ${days} ORDER BY date`;
  }
  const members = series.members ?? [];
  if (members.length > MAX_QUERY_MEMBERS) return undefined;
  return `SELECT date, sum(billable_tokens) AS credits FROM user_days WHERE ${org} AND lower(user_email) IN (${members.map(sqlText).join(', ')}) AND ${days} GROUP BY date ORDER BY date`;
}

/** The report's section that shows a scope's credits of a month. */
export function creditsDocument(series: ScopeSeries): string {
  switch (series.scope.kind) {
    case 'organization':
      return 'the monthly report (orgreport monthly --partial for the month so far): Usage';
    case 'user':
      return 'the monthly report (orgreport monthly --partial): Usage, and Seats and credit limits';
    case 'team':
      return 'the monthly report with the directory (orgreport monthly --partial --directory FILE): Teams';
    default:
      return 'the monthly report with the directory (orgreport monthly --partial --directory FILE): Chargeback by cost center';
  }
}

/** The report's section that shows control changes. */
export const CONTROLS_DOCUMENT =
  'the monthly report (orgreport monthly --partial): Enterprise-control changes';
