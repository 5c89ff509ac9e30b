/** What every resource of a client shares: the transport and the clock of the "before today" check. */
import type { Clock } from '../dates.ts';
import type { Transport } from '../transport.ts';

export interface ClientContext {
  transport: Transport;
  /** Decides "today" for analytics date checks; without it the server alone enforces that rule. */
  now: Clock | undefined;
  /** True when the client was given the web application host (needed by readiness reports). */
  hasAppUrl: boolean;
}
