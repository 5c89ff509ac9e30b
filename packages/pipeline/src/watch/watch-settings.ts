/**
 * The config file's `watch:` key: the alert rules of `orgreport watch` (docs/watch.md). Every
 * member is optional and takes the default of `@orgreport/watch` (`DEFAULT_RULES`), so `watch: {}`
 * and no key at all mean the same: security changes, spikes and stale data on, no budget but the
 * limits set with `limits apply`, no route (alerts printed, not delivered).
 */
import { DEFAULT_RULES, RULES } from '@orgreport/watch';
import { z } from 'zod';

const credits = z
  .number('expected a number of credits')
  .nonnegative('expected a number of credits, 0 or more');
const budgetsByName = z.record(z.string().trim().min(1, 'must not be empty'), credits);
const positiveWhole = (what: string) =>
  z.number(`expected ${what}`).int(`expected ${what}`).positive(`expected ${what}`);

const d = DEFAULT_RULES;

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const SCOPE = /^(org|team:.+|cost-center:.+|manager:.+)$/;

/**
 * Where alerts go: targets, the scope whose alerts they take, whose per-person alerts they may see
 * and which rules (docs/watch.md, Delivery).
 */
export const watchRoute = z.strictObject({
  /** Delivery targets: e-mail addresses, slack:#channel, teams[:VAR], webhook:URL, s3://bucket/prefix/, dir:PATH. */
  to: z.array(nonEmpty).min(1, 'expected at least one target'),
  /** The alerts of this scope and of what lies inside it: org, team:NAME, cost-center:NAME or manager:EMAIL. */
  scope: z
    .string()
    .trim()
    .regex(SCOPE, 'expected org, team:NAME, cost-center:NAME or manager:EMAIL')
    .default('org'),
  /** Whose alerts about one person the route may receive: everyone's, its scope's people's, or nobody's. */
  people: z.enum(['all', 'scope', 'none'], 'expected all, scope or none').default('none'),
  /** The rules whose alerts it takes (default: every rule). */
  rules: z
    .array(z.enum(RULES, `expected rules among ${RULES.join(', ')}`))
    .min(1, 'expected at least one rule')
    .optional(),
});
export type WatchRouteConfig = z.output<typeof watchRoute>;

export const watchConfig = z
  .strictObject({
    /** Alert on changed security-relevant settings. */
    security: z.boolean().default(d.security.enabled),
    budgets: z
      .strictObject({
        organization: credits.optional(),
        costCenters: budgetsByName.default({}),
        teams: budgetsByName.default({}),
        users: z.record(z.email('expected an e-mail address'), credits).default({}),
        /** The directory's column that holds each person's monthly budget in credits. */
        directoryColumn: z.string().trim().min(1, 'must not be empty').optional(),
        fromLimits: z.boolean().default(d.budgets.fromLimits),
        thresholds: z
          .array(z.number().positive('expected a percent above 0').max(1000, 'expected a percent up to 1000'))
          .min(1, 'expected at least one threshold')
          .default([...d.budgets.thresholds]),
        forecast: z.boolean().default(d.budgets.forecast),
      })
      .prefault({}),
    spike: z
      .strictObject({
        enabled: z.boolean().default(d.spike.enabled),
        multiple: z.number().gt(1, 'expected a multiple above 1').default(d.spike.multiple),
        trailingDays: positiveWhole('a whole number of days').max(366).default(d.spike.trailingDays),
        minHistoryDays: positiveWhole('a whole number of days').default(d.spike.minHistoryDays),
        minCredits: credits.default(d.spike.minCredits),
        quietDays: positiveWhole('a whole number of days').max(366).default(d.spike.quietDays),
        scopes: z.array(z.enum(['organization', 'team', 'user'])).default([...d.spike.scopes]),
      })
      .refine((s) => s.minHistoryDays <= s.trailingDays, 'minHistoryDays cannot exceed trailingDays')
      .prefault({}),
    stale: z
      .strictObject({
        enabled: z.boolean().default(d.stale.enabled),
        byHourUtc: z.number().int('expected an hour from 0 to 23').min(0).max(23).default(d.stale.byHourUtc),
        syncFailures: positiveWhole('a whole number of days').default(d.stale.syncFailures),
      })
      .prefault({}),
    /** Days of the trailing window the forecast's rates come from. */
    forecastDays: positiveWhole('a whole number of days').max(366).default(d.forecastDays),
    /** Where the alerts are delivered (none: printed only). */
    routes: z.array(watchRoute).default([]),
  })
  .prefault({});

/** The `watch:` key as read, defaults filled in. */
export type WatchConfig = z.output<typeof watchConfig>;
