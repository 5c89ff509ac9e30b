/**
 * `@orgreport/api-core/hook-events`: hook-event parsing and the hook schemas without the client,
 * the resources and the API schemas, so a hook command starts fast.
 */
export * from './hook-events.ts';
export * from './hook-schemas.ts';
