/** What every resource of a client shares: the transport and the clock of the "before today" check. */
import type { Clock } from '../dates.ts';
import type { Transport } from '../transport.ts';

/** Listings of the API, each with its own bound (see {@link DEFAULT_LIST_LIMITS}). */
export type Listing = 'readiness' | 'controls' | 'orgUsers' | 'userDays';

/**
 * Most items each listing may hold before the server is taken for a runaway: far above real
 * organizations (`userDays` counts `/users` rows: 100,000 users x 61 days is 6.1 million).
 */
export const DEFAULT_LIST_LIMITS: Readonly<Record<Listing, number>> = {
  readiness: 100_000,
  controls: 100_000,
  orgUsers: 1_000_000,
  userDays: 50_000_000,
};

export interface ClientContext {
  /** Most items of a listing (the client's `maxListItems`, else the listing's default). */
  listLimit(listing: Listing): number;
  transport: Transport;
  /** Decides "today" for analytics date checks; without it the server alone enforces that rule. */
  now: Clock | undefined;
  /** True when the client was given the web application host (needed by readiness reports). */
  hasAppUrl: boolean;
}
