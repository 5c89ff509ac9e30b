/** Reports and alerts delivered: the destinations (built in and from packages), the ledger, the sending. */
export * from './destination-packages.ts';
export * from './send-reports.ts';
