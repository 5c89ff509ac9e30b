/**
 * An alert as a message any destination can deliver: the shape of `DeliveryMessage` of
 * `@orgreport/deliver` (kind `alert`, subject, text, summary, facts, no documents, meta). The shape
 * is mirrored here rather than imported, so that the rules do not depend on the delivery stage; the
 * CLI, which has both, checks at compile time that the two agree.
 */
import { scopeLabel } from './format.ts';
import type { Alert } from './types.ts';

/** The message of an alert (structurally a `DeliveryMessage` of `@orgreport/deliver`). */
export interface AlertMessage {
  kind: 'alert';
  subject: string;
  text: string;
  summary: string;
  facts: ReadonlyArray<{ label: string; value: string }>;
  documents: ReadonlyArray<never>;
  /**
   * `rule`, `key`, `org_id`, `scope`, `period`, `severity`, `day`, `person` (`true`/`false`), and for
   * an alert about a person their `email` (or `user_id`): route it only to recipients allowed to see them.
   */
  meta: Readonly<Record<string, string>>;
}

const RULE_TITLES: Record<Alert['rule'], string> = {
  security: 'security setting changed',
  budget: 'budget',
  spike: 'credit spike',
  stale: 'stale data',
};

function factValue(value: string | number | boolean | null): string {
  if (value === null) return '(none)';
  if (typeof value === 'number')
    return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
  return String(value);
}

/**
 * A shell word: as it is when plain, else in double quotes when nothing in it is special there (SQL
 * holds single quotes), else in single quotes, so that a pasted command runs nothing of its text.
 */
function shellWord(text: string): string {
  if (/^[\w./:=@%+-]+$/.test(text)) return text;
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The command line that shows more of an alert, safe to paste into a shell whatever its SQL holds
 * (an e-mail address may hold a backtick or a dollar sign).
 *
 * @example
 * moreCommand('./store', "SELECT 1 WHERE x = 'a'") // `orgreport query --store ./store "SELECT 1 WHERE x = 'a'"`
 */
export function moreCommand(store: string, sql: string): string {
  return `orgreport query --store ${shellWord(store)} ${shellWord(sql)}`;
}

/**
 * The message of an alert, rendered once for every destination.
 *
 * @example
 * alertMessage(alert).subject // '[orgreport] critical: budget of team Platform (2026-10, actual-100)'
 */
export function alertMessage(alert: Alert): AlertMessage {
  const what = `${RULE_TITLES[alert.rule]} of ${scopeLabel(alert.scope)}`;
  const detail = alert.threshold ? `${alert.period}, ${alert.threshold}` : alert.period;
  const facts = Object.entries(alert.figures).map(([label, value]) => ({ label, value: factValue(value) }));
  const more = [
    ...(alert.more.sql ? [moreCommand('DIR', alert.more.sql)] : []),
    ...(alert.more.document ? [alert.more.document] : []),
  ];
  const text = [
    alert.sentence,
    '',
    ...facts.map((f) => `${f.label}: ${f.value}`),
    ...(more.length > 0 ? ['', 'More:', ...more.map((m) => `  ${m}`)] : []),
  ].join('\n');
  return {
    kind: 'alert',
    subject: `[orgreport] ${alert.severity}: ${what} (${detail})`,
    text: `${text}\n`,
    summary: alert.sentence,
    facts,
    documents: [],
    meta: {
      rule: alert.rule,
      key: alert.key,
      org_id: alert.orgId,
      scope: `${alert.scope.kind}:${alert.scope.name}`,
      period: alert.period,
      severity: alert.severity,
      day: alert.day,
      person: String(alert.person),
      ...(alert.threshold ? { threshold: alert.threshold } : {}),
      ...(alert.person && alert.email ? { email: alert.email } : {}),
      ...(alert.person && alert.userId ? { user_id: alert.userId } : {}),
    },
  };
}
