/**
 * The S3 settings stores at `s3://` URLs are reached with, given once by the program (this package
 * never reads the environment). A module of its own, which loads nothing, so that a program sets
 * them at start-up without loading the store (and DuckDB).
 */

let current: Readonly<Record<string, string | undefined>> = {};

/**
 * Sets the S3 settings (`@orgreport/object-store`'s `S3_SETTINGS`, by variable name) for every
 * store at an `s3://` URL opened from now on.
 */
export function configureObjectStorage(values: Readonly<Record<string, string | undefined>>): void {
  current = { ...values };
}

/** The S3 settings last given. */
export function objectStorageSettings(): Readonly<Record<string, string | undefined>> {
  return current;
}
