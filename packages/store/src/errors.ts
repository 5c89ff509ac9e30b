/** Errors of the store, each one a class of its own so callers test `instanceof`. */

/** A folder that is not a store, a store of another schema version, or a store that lacks what was asked. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** Another sync of the same organization holds the store's lock. */
export class StoreLockedError extends StoreError {
  override name = 'StoreLockedError';
}

/** A query the engine refused (bad SQL, unknown table or column): DuckDB's own message. */
export class StoreQueryError extends StoreError {
  override name = 'StoreQueryError';
}
