/**
 * What `orgreport watch` prints on stdout: the alerts as text (the new ones with their sentence,
 * where to see more and where they go; a count of those found before that still hold), or with
 * `--json` one object whose `alerts` list holds every alert with its `new` flag and routes (in a dry
 * run too); and the forecast's backtest with `--backtest`.
 */

import type { AlertPlan, OrganizationWatch, WatchDelivery, WatchRoute } from '@orgreport/pipeline/watch';
import { type Alert, type Backtest, moreCommand } from '@orgreport/watch';
import type { TextOut } from '../io.ts';

/** What the watch did with its alerts, for printing. */
export interface WatchPrinting {
  store: string;
  today: string;
  dryRun: boolean;
  json: boolean;
  started: number;
  /** The alerts due this run (new, or left undelivered by an earlier run), by organization id. */
  due: ReadonlyMap<string, readonly Alert[]>;
  routes: readonly WatchRoute[];
  /** A target as it may be printed. */
  labelOf: (target: string) => string;
  plan?: AlertPlan;
  delivery?: WatchDelivery;
}

/** Where a due alert goes: each route with the targets it takes the alert to, and the routes it is kept from. */
function destinationsOf(alert: Alert, options: WatchPrinting) {
  const routing = options.plan?.routing.get(alert.key);
  const routes = (routing?.routes ?? []).map((route) => ({
    route: route.number,
    to: (options.plan?.deliveries ?? [])
      .filter((d) => d.alert.key === alert.key && d.route === route)
      .map((d) => options.labelOf(d.target)),
  }));
  const withheld = (routing?.withheld ?? []).map((w) => ({ route: w.route.number, reason: w.reason }));
  return { routes, withheld };
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const signed = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;

function alertLines(alert: Alert, options: WatchPrinting): string[] {
  const label = options.dryRun
    ? alert.new
      ? 'would send'
      : 'would send again'
    : alert.new
      ? 'new'
      : 'again';
  const lines = [`  ${label}  ${alert.severity}  ${alert.rule}: ${alert.sentence}`];
  if (alert.more.sql) lines.push(`      more: ${moreCommand(options.store, alert.more.sql)}`);
  if (alert.more.document) lines.push(`      see: ${alert.more.document}`);
  if (options.routes.length > 0) {
    const { routes, withheld } = destinationsOf(alert, options);
    const to = routes.map((r) => `route ${r.route} (${r.to.join(', ') || 'its targets already have it'})`);
    lines.push(`      to: ${to.length > 0 ? to.join(', ') : 'no route'}`);
    for (const w of withheld) lines.push(`      withheld from route ${w.route}: ${w.reason}`);
  }
  return lines;
}

/** The line of the deliveries: what went, what was kept from routes, the ledger. */
function deliveryLine(options: WatchPrinting): string | undefined {
  if (!options.plan) return undefined;
  const withheld = `${options.plan.withheld} withheld from routes by privacy`;
  const d = options.delivery;
  if (!d) return `deliveries: ${options.plan.deliveries.length} would be sent; ${withheld}`;
  const failed = d.failed.length > 0 ? `, ${d.failed.length} not delivered (${d.failed.join(', ')})` : '';
  return `deliveries: ${d.sent} sent, ${d.alreadyDelivered} already delivered${d.unknown > 0 ? `, ${d.unknown} unknown` : ''}${failed}; ${withheld} (ledger ${d.ledger})`;
}

/** Prints the watch of every organization: text, or one JSON object with `--json`. */
export function printWatch(
  out: TextOut,
  results: readonly OrganizationWatch[],
  options: WatchPrinting,
): void {
  const dueOf = (r: OrganizationWatch) => options.due.get(r.orgId) ?? [];
  if (options.json) {
    const alerts = results.flatMap((r) => {
      const due = dueOf(r);
      const keys = new Set(due.map((a) => a.key));
      // Every alert that holds, and those an earlier run left undelivered that no longer hold.
      const all = [...r.alerts, ...due.filter((a) => !r.alerts.some((b) => b.key === a.key))];
      return all.map((a) => ({
        ...a,
        due: keys.has(a.key),
        ...(keys.has(a.key) ? destinationsOf(a, options) : { routes: [], withheld: [] }),
      }));
    });
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
      alerts,
      routes: options.routes.map((r) => ({
        route: r.number,
        source: r.source,
        scope: r.scope.kind === 'org' ? 'org' : `${r.scope.kind}:${r.scope.name}`,
        people: r.people,
        rules: r.rules ?? 'all',
        to: r.to.map(options.labelOf),
      })),
      withheld: options.plan?.withheld ?? 0,
      delivery: options.delivery ?? null,
      timings: { totalMs: Math.round(performance.now() - options.started) },
    };
    out.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const lines: string[] = [];
  if (options.dryRun) lines.push('dry run: nothing is recorded or sent; the alerts below would be sent');
  for (const r of results) {
    lines.push(
      `${r.name} (${r.orgId}), ${r.lastDay ? `days held through ${r.lastDay}` : 'no day held (or none readable)'}:`,
    );
    const due = dueOf(r);
    const held = r.alerts.filter((a) => !due.some((b) => b.key === a.key)).length;
    if (due.length === 0) lines.push('  no new alert');
    for (const a of due) lines.push(...alertLines(a, options));
    if (held > 0)
      lines.push(
        `  ${held} alert${held === 1 ? '' : 's'} found by an earlier run still hold${held === 1 ? 's' : ''} (--json lists every alert)`,
      );
    if (r.forecast) {
      const f = r.forecast;
      lines.push(
        `  forecast of ${f.month}: ${whole.format(f.toDate)} credits up to ${f.lastDay}, ${whole.format(f.forecast)} by the month's end`,
      );
    }
  }
  const delivered = deliveryLine(options);
  if (delivered) lines.push(delivered);
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
