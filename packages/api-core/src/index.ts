export * from './dates.ts';
export * from './redact.ts';
export * from './schemas.ts';
export * from './snapshot.ts';
