/**
 * Errors of the store, each one a class of its own so callers test `instanceof`. This module imports
 * nothing, so that `@orgreport/store/errors` lets a caller recognise them without loading DuckDB.
 */

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

/** What a damaged file of a store needs. */
export interface DamagedStoreDetails {
  /** The store folder, as given. */
  store: string;
  /** The damaged file, `/`-separated, relative to the store folder (`user_days/org_id=.../part-0.parquet`). */
  file: string;
  /** What is wrong with it, in plain words (`is empty (0 bytes)`, `cannot be read (EACCES)`). */
  problem: string;
  /** What mends it: a sentence that ends with the command to run. */
  remedy: string;
}

/**
 * A file of the store that cannot be read as what it should be: a Parquet partition cut short,
 * empty or not Parquet at all, or a `_store.json`, state or record file that is unreadable or not
 * JSON. It names the file and what mends it (for the datasets and the state:
 * `orgreport sync --store DIR --rebuild`, which remakes them from the raw responses the store keeps).
 */
export class DamagedStoreError extends StoreError {
  override name = 'DamagedStoreError';
  readonly store: string;
  readonly file: string;
  readonly problem: string;
  readonly remedy: string;
  constructor(details: DamagedStoreDetails, options?: { cause?: unknown }) {
    super(
      `the store ${details.store} is damaged: ${details.file} ${details.problem}; ${details.remedy}`,
      options,
    );
    this.store = details.store;
    this.file = details.file;
    this.problem = details.problem;
    this.remedy = details.remedy;
  }
}
