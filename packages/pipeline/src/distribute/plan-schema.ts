/**
 * The distribution plan's shape (`--plan FILE` or the config file's `distribution`): rules that say
 * who gets which report. Each rule is either `each` (one report per manager, team or cost center of
 * the directory, to the manager or to the owner named in a directory column) or `scope` (one report
 * of a scope to named addresses).
 */
import { z } from 'zod';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : v,
    z.array(item).min(1, 'expected at least one item'),
  );

/** One rule of a plan. */
export const planRuleSchema = z
  .strictObject({
    /** One report per manager (everyone under them), team or cost center of the directory. */
    each: z.enum(['manager', 'team', 'cost-center'], 'expected manager, team or cost-center').optional(),
    /** One report of this scope: org, team:NAME, cost-center:NAME or manager:EMAIL. */
    scope: nonEmpty.optional(),
    /** With `each: team` or `each: cost-center`: the directory column that names each one's owner (an e-mail). */
    owner: nonEmpty.optional(),
    /** With `scope`: who gets it (e-mail addresses, or any delivery target). */
    to: list(nonEmpty).optional(),
    /** More targets for every report of the rule: slack:#channel, teams:VAR, webhook:URL, s3://bucket/prefix/, dir:PATH. */
    deliver: list(nonEmpty).optional(),
    /** The documents: pdf, xlsx, html, json (default pdf). */
    formats: list(z.enum(['pdf', 'xlsx', 'html', 'json'], 'expected pdf, xlsx, html or json')).optional(),
    /** The report's sections in order (default: every section). */
    sections: list(nonEmpty).optional(),
    /** Whose per-person rows the readers see: all, scope (their scope's people) or none. */
    people: z.enum(['all', 'scope', 'none'], 'expected all, scope or none').optional(),
  })
  .refine((r) => (r.each === undefined) !== (r.scope === undefined), 'give a rule either "each" or "scope"')
  .refine(
    (r) => r.each === undefined || r.to === undefined,
    '"to" goes with "scope"; an "each" rule sends to the manager or the owner column',
  )
  .refine(
    (r) => r.scope === undefined || r.to !== undefined || r.deliver !== undefined,
    'a "scope" rule needs "to" or "deliver"',
  )
  .refine(
    (r) => (r.each !== 'team' && r.each !== 'cost-center' ? true : r.owner !== undefined),
    '"each: team" and "each: cost-center" need "owner": the directory column naming each one\'s owner',
  );
export type PlanRule = z.infer<typeof planRuleSchema>;

/**
 * Who answers for the money no cost center owns (the Unassigned people and seats, the credits no
 * user row carries): the organization's workbook, with its chargeback and the people behind those
 * rows, goes to them. Without it, the organization report's readers are the ones who get it.
 */
export const financeSchema = z.strictObject({
  to: list(nonEmpty),
  /** The documents (default xlsx). */
  formats: list(z.enum(['pdf', 'xlsx', 'html', 'json'], 'expected pdf, xlsx, html or json')).optional(),
  /** Whose per-person rows they see: all (default, so the people behind Unassigned are named) or none. */
  people: z.enum(['all', 'none'], 'expected all or none').optional(),
});

/** A whole plan. */
export const planSchema = z.strictObject({
  /** The minimum group size of this plan (default: the setting, 5). */
  minGroupSize: z.number().int().min(1).optional(),
  rules: z.array(planRuleSchema).min(1, 'expected at least one rule'),
  finance: financeSchema.optional(),
});
export type Plan = z.infer<typeof planSchema>;

/** Each part of a plan, as a message names it, and the keys it takes. */
const PARTS = {
  plan: { taker: 'a plan takes', keys: Object.keys(planSchema.shape) },
  rule: { taker: 'a rule takes', keys: Object.keys(planRuleSchema.shape) },
  finance: { taker: '"finance" takes', keys: Object.keys(financeSchema.shape) },
};

/**
 * A plan's first problem in a reader's words, as the config file's are said: where (`rule 2`,
 * `finance`, `rule 1 formats 2`), then what, an unknown key with the keys that part takes.
 *
 * @example
 * planProblem(planSchema.safeParse({ rules: [{ each: 'manager', fromats: ['pdf'] }] }).error!.issues[0]!)
 * // 'rule 1: unknown key "fromats" (a rule takes: each, scope, owner, to, deliver, formats, sections, people)'
 */
export function planProblem(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  const where =
    path.length === 0
      ? 'the plan'
      : path
          // Counted from 1, as a reader counts the rules and a list's items.
          .map((p) => (/^\d+$/.test(p) ? `${Number(p) + 1}` : p))
          .join(' ')
          .replace(/^rules (\d+)/, 'rule $1');
  if (issue.code !== 'unrecognized_keys') return `${where}: ${issue.message}`;
  const part = PARTS[path.length === 0 ? 'plan' : path[0] === 'finance' ? 'finance' : 'rule'];
  const keys = issue.keys.map((k) => JSON.stringify(k)).join(', ');
  return `${where}: unknown key ${keys} (${part.taker}: ${part.keys.join(', ')})`;
}
