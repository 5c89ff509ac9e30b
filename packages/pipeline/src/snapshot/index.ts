/** A month's data: its period, fetched (or read from the store), written as a snapshot folder. */
export * from './acquire.ts';
export * from './fetch-month.ts';
