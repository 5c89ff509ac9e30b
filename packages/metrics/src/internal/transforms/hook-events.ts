/**
 * Summary of the local hook log's events in a span.
 */
import type { Snapshot } from '@orgreport/api-core';
import type { HookEventsSummary } from '../../model.ts';
import { inSpan } from './span.ts';

function ranked(map: Map<string, number>): Array<[string, number]> {
  return [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/**
 * Counts the events recorded inside the span (events without `recorded_at` are counted as undated),
 * by event kind and SessionEnd reason, with the number of distinct sessions.
 *
 * @example
 * hookEventsSummary(snapshot.hookEvents ?? [], period).by_event // [{ event: 'Stop', count: 3 }]
 */
export function hookEventsSummary(
  events: NonNullable<Snapshot['hookEvents']>,
  span: { start: string; end: string },
): HookEventsSummary {
  const byEvent = new Map<string, number>();
  const reasons = new Map<string, number>();
  const sessions = new Set<string>();
  let total = 0;
  let undated = 0;
  for (const e of events) {
    if (e.recorded_at) {
      if (!inSpan(e.recorded_at.slice(0, 10), span)) continue;
    } else undated++;
    total++;
    byEvent.set(e.hook_event_name, (byEvent.get(e.hook_event_name) ?? 0) + 1);
    if (e.hook_event_name === 'SessionEnd')
      reasons.set(e.reason ?? '(none)', (reasons.get(e.reason ?? '(none)') ?? 0) + 1);
    sessions.add(e.session_id);
  }
  return {
    total,
    by_event: ranked(byEvent).map(([event, count]) => ({ event, count })),
    session_end_reasons: ranked(reasons).map(([reason, count]) => ({ reason, count })),
    sessions: sessions.size,
    undated,
  };
}
