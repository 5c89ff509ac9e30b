/**
 * What `orgreport watch` prints on stdout: the alerts as text (the new ones with their sentence and
 * where to see more; a count of those sent before that still hold), or with `--json` one object
 * whose `alerts` list holds every alert with its `new` flag (in a dry run too); and the forecast's
 * backtest with `--backtest`.
 */
import type { Alert, Backtest, Forecast } from '@orgreport/watch';
import type { TextOut } from '../io.ts';

/** One organization's watch. */
export interface OrganizationWatch {
  orgId: string;
  name: string;
  lastDay: string | null;
  alerts: Alert[];
  forecast: Forecast | null;
  notes: string[];
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const signed = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;

/**
 * A shell word: as it is when plain, else in double quotes when nothing in it is special there (SQL
 * holds single quotes), else in single quotes.
 */
function shellWord(text: string): string {
  if (/^[\w./:=@%+-]+$/.test(text)) return text;
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The command line that shows more of an alert. */
export function moreCommand(store: string, sql: string): string {
  return `orgreport query --store ${shellWord(store)} ${shellWord(sql)}`;
}

function alertLines(alert: Alert, store: string, dryRun: boolean): string[] {
  const label = dryRun ? 'would send' : 'new';
  const lines = [`  ${label}  ${alert.severity}  ${alert.rule}: ${alert.sentence}`];
  if (alert.more.sql) lines.push(`      more: ${moreCommand(store, alert.more.sql)}`);
  if (alert.more.document) lines.push(`      see: ${alert.more.document}`);
  return lines;
}

/** Prints the watch of every organization: text, or one JSON object with `--json`. */
export function printWatch(
  out: TextOut,
  results: readonly OrganizationWatch[],
  options: { store: string; today: string; dryRun: boolean; json: boolean; started: number },
): void {
  if (options.json) {
    const summary = {
      command: 'watch',
      dryRun: options.dryRun,
      today: options.today,
      store: options.store,
      organizations: results.map((r) => ({
        id: r.orgId,
        name: r.name,
        lastDay: r.lastDay,
        forecast: r.forecast,
        notes: r.notes,
      })),
      alerts: results.flatMap((r) => r.alerts),
      timings: { totalMs: Math.round(performance.now() - options.started) },
    };
    out.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const lines: string[] = [];
  if (options.dryRun) lines.push('dry run: nothing is recorded; the alerts below would be sent');
  for (const r of results) {
    lines.push(`${r.name} (${r.orgId}), days held through ${r.lastDay ?? 'none'}:`);
    const fresh = r.alerts.filter((a) => a.new);
    const held = r.alerts.length - fresh.length;
    if (fresh.length === 0) lines.push('  no new alert');
    for (const a of fresh) lines.push(...alertLines(a, options.store, options.dryRun));
    if (held > 0)
      lines.push(
        `  ${held} alert${held === 1 ? '' : 's'} sent before still hold${held === 1 ? 's' : ''} (--json lists every alert)`,
      );
    if (r.forecast) {
      const f = r.forecast;
      lines.push(
        `  forecast of ${f.month}: ${whole.format(f.toDate)} credits up to ${f.lastDay}, ${whole.format(f.forecast)} by the month's end`,
      );
    }
  }
  out.write(`${lines.join('\n')}\n`);
}

/** Prints the forecast's backtest of each organization. */
export function printBacktest(
  out: TextOut,
  results: ReadonlyArray<{ orgId: string; name: string } & Backtest>,
  json: boolean,
  started: number,
): void {
  if (json) {
    out.write(
      `${JSON.stringify({ command: 'watch', backtest: results, timings: { totalMs: Math.round(performance.now() - started) } })}\n`,
    );
    return;
  }
  const lines: string[] = [];
  for (const r of results) {
    const months = r.months.map((m) => m.month);
    lines.push(
      `${r.name} (${r.orgId}): forecast backtest over ${months.length} whole month(s)${months.length ? ` (${months[0]}..${months.at(-1)})` : ''}`,
    );
    lines.push(`  method: ${r.method} (${r.trailingDays} days)`);
    if (r.overall.points === 0) {
      lines.push('  no whole month held yet: nothing to measure');
      continue;
    }
    lines.push(
      `  ${r.overall.points} forecasts: mean absolute error ${pct(r.overall.mape)}, bias ${signed(r.overall.bias)}; by days into the month: ${r.byThird.map((t) => `${t.days}: ${pct(t.mape)}`).join(', ')}`,
    );
    lines.push('  day  months    MAPE    bias   worst');
    for (const d of r.byDay) {
      lines.push(
        `  ${String(d.day).padStart(3)}  ${String(d.months).padStart(6)}  ${pct(d.mape).padStart(6)}  ${signed(d.bias).padStart(6)}  ${pct(d.worst).padStart(6)}`,
      );
    }
    lines.push('  month     actual credits    MAPE');
    for (const m of r.months) {
      lines.push(`  ${m.month}  ${whole.format(m.actual).padStart(15)}  ${pct(m.mape).padStart(6)}`);
    }
  }
  out.write(`${lines.join('\n')}\n`);
}
