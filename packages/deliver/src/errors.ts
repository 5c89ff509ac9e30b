/** Errors of the ledger, each a class of its own so callers test `instanceof`. */

/** A ledger that cannot be read or written: a damaged line, an entry of another version, a failed write. */
export class LedgerError extends Error {
  override readonly name: string = 'LedgerError';
}

/** Another live process holds the ledger's lock (`<ledger>.lock`). */
export class LedgerLockedError extends LedgerError {
  override readonly name = 'LedgerLockedError';
}

/** Deliveries that cannot be sent as given: two with one key, a delivery without a target, bad options. */
export class DeliveryPlanError extends Error {
  override readonly name = 'DeliveryPlanError';
}

/**
 * A ledger that cannot be opened as configured: a bucket that does not exist, credentials refused,
 * a database of another schema version. The message names what to fix; nothing was sent.
 */
export class LedgerConfigError extends LedgerError {
  override readonly name = 'LedgerConfigError';
}
