/**
 * Daily active users by client type over a span.
 */
import { type ActivityDay, CLIENT_TYPES, type ClientType } from '@orgreport/api-core';
import type { ClientRow } from '../../model.ts';

/** What each client type of the API specification is, in a reader's words. */
const CLIENT_NAMES: Readonly<Record<ClientType, string>> = {
  'terminal-ui': 'Terminal, interactive',
  web: 'Web application',
  'non-interactive-cli': 'Command line, automated',
};

/**
 * A client type in a reader's words; one the API specification does not list, as the API sent it.
 *
 * @example
 * clientName('non-interactive-cli') // 'Command line, automated'
 */
export function clientName(client: string): string {
  return Object.hasOwn(CLIENT_NAMES, client) ? CLIENT_NAMES[client as ClientType] : client;
}

/**
 * Mean, peak and sum of each client's DAU over the span's `/activity` days (known client types
 * always listed; others as they occur). A day without a value for a client counts as 0 for it.
 *
 * @example
 * clientDau(days) // [{ client: 'terminal-ui', avg_dau: 3.2, peak_dau: 5, user_days: 99 }, ...]
 */
export function clientDau(days: readonly ActivityDay[]): ClientRow[] {
  const clients = new Set<string>(CLIENT_TYPES);
  for (const d of days) for (const c of Object.keys(d.daily_active_users_by_client ?? {})) clients.add(c);
  return [...clients].map((client) => {
    let sum = 0;
    let peak = 0;
    for (const d of days) {
      const v = d.daily_active_users_by_client?.[client] ?? 0;
      sum += v;
      if (v > peak) peak = v;
    }
    return {
      client,
      avg_dau: days.length ? sum / days.length : null,
      peak_dau: days.length ? peak : null,
      user_days: sum,
    };
  });
}
