/** The watch: its inputs read from the store, its rules, routes, state and outbox, its deliveries. */
export * from './deliver-alerts.ts';
export * from './inputs.ts';
export * from './outbox.ts';
export * from './routes.ts';
export * from './state.ts';
export * from './watch-settings.ts';
export * from './watch-store.ts';
