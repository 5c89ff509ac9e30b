/**
 * A distribution plan resolved against the directory: every report (a scope, its formats and
 * sections, whose per-person rows it shows, who reads it) and every delivery (a report to one
 * recipient at one target); scopes under the minimum group size are held back with the reason.
 */
import {
  type DirectoryIndex,
  ORGANIZATION_SCOPE,
  type PersonRows,
  parseScope,
  type ResolvedScope,
  resolveScope,
  ScopeError,
  type ScopeSpec,
  scopeNames,
  scopeText,
} from '@orgreport/metrics';
import { isEmailTarget, normalTarget } from '../deliver/send-reports.ts';
import { UsageError } from '../errors.ts';
import type { Plan, PlanRule } from './plan-schema.ts';

/** One report of the plan. */
export interface PlannedReport {
  /** Unique in the plan: scope, rows, formats and sections. */
  id: string;
  scope: ScopeSpec;
  /** Null for the organization. */
  resolved: ResolvedScope | null;
  formats: string[];
  sections?: string[];
  personRows: PersonRows;
  /** Its readers' e-mails (a reader may be named in their own report). */
  readers: string[];
  /** People in the scope on the period's last day (the directory's people for the organization). */
  people: number;
}

/** One delivery of the plan: a report to one recipient at one target. */
export interface PlannedDelivery {
  report: string;
  recipient: string;
  target: string;
}

/** A scope of the plan that gets no report, and why. */
export interface HeldBack {
  scope: string;
  people: number;
  reason: string;
  recipients: string[];
}

export interface ResolvedPlan {
  minGroupSize: number;
  reports: PlannedReport[];
  deliveries: PlannedDelivery[];
  heldBack: HeldBack[];
}

/**
 * The plan when none is given: each manager their people's report (the PDF unless `managerFormats`
 * says otherwise), the `--email` addresses the organization's in `formats`.
 */
export function defaultPlan(
  mailTo: readonly string[],
  formats: readonly string[],
  managerFormats: readonly string[] = ['pdf'],
): Plan {
  return {
    rules: [
      { each: 'manager', formats: managerFormats as NonNullable<PlanRule['formats']>, people: 'scope' },
      ...(mailTo.length > 0
        ? [
            {
              scope: 'org',
              to: [...mailTo],
              formats: formats as NonNullable<PlanRule['formats']>,
              people: 'all' as const,
            },
          ]
        : []),
    ],
  };
}

/** The default rows a rule's readers see: everyone's for the organization, their own people's for a manager, none for an owner. */
function defaultRows(rule: PlanRule, spec: ScopeSpec): PersonRows {
  if (rule.people) return rule.people;
  if (spec.kind === 'org') return 'all';
  if (rule.each === 'manager' || spec.kind === 'manager') return 'scope';
  return 'none';
}

/** The owners of each team or cost center, from the named directory column (rows in effect on the range's last day). */
function ownersOf(
  index: DirectoryIndex,
  kind: 'team' | 'cost-center',
  column: string,
): Map<string, string[]> {
  const last = index.rows[index.rows.length - 1] ?? new Map();
  const known = index.directory.people.some((p) => Object.hasOwn(p.attributes, column.toLowerCase()));
  if (!known) {
    throw new UsageError(
      `${index.directory.source}: the plan names the owner column "${column}", which the directory does not have (its columns: email, team, cost_center, manager${[...new Set(index.directory.people.flatMap((p) => Object.keys(p.attributes)))].map((c) => `, ${c}`).join('')})`,
    );
  }
  const owners = new Map<string, string[]>();
  for (const row of last.values()) {
    const name = kind === 'team' ? row.team : row.costCenter;
    const owner = row.attributes[column.toLowerCase()]?.trim();
    const list = owners.get(name) ?? [];
    if (owner && !list.some((o) => o.toLowerCase() === owner.toLowerCase())) list.push(owner);
    owners.set(name, list);
  }
  return owners;
}

/**
 * Resolves a plan: scopes against the directory index, recipients from the manager or owner column
 * or the rule; each report once, however many rules and recipients share it.
 */
export function resolvePlan(
  plan: Plan,
  index: DirectoryIndex,
  options: { minGroupSize: number; organizationPeople: number },
): ResolvedPlan {
  const minGroupSize = plan.minGroupSize ?? options.minGroupSize;
  const reports = new Map<string, PlannedReport>();
  const deliveries: PlannedDelivery[] = [];
  const heldBack = new Map<string, HeldBack>();
  const seen = new Set<string>();

  const add = (rule: PlanRule, spec: ScopeSpec, recipients: string[]) => {
    let resolved: ResolvedScope | null = null;
    try {
      resolved = spec.kind === 'org' ? null : resolveScope(index, spec);
    } catch (error) {
      if (error instanceof ScopeError)
        throw new UsageError(`the plan's scope ${scopeText(spec)}: ${error.message}`);
      throw error;
    }
    const people = resolved?.people ?? options.organizationPeople;
    const targets = [...recipients, ...(rule.deliver ?? [])];
    if (resolved && people < minGroupSize) {
      const key = scopeText(spec);
      const held = heldBack.get(key) ?? {
        scope: key,
        people,
        reason:
          people === 0
            ? `nobody is in it on the period's last day`
            : `${people} ${people === 1 ? 'person' : 'people'}, fewer than the minimum group size of ${minGroupSize}`,
        recipients: [],
      };
      held.recipients.push(...targets.filter((t) => !held.recipients.includes(t)));
      heldBack.set(key, held);
      return;
    }
    const formats = [...new Set(rule.formats ?? ['pdf'])].sort();
    const personRows = defaultRows(rule, spec);
    const id = [scopeText(spec), personRows, formats.join('+'), (rule.sections ?? []).join('+')].join('|');
    let report = reports.get(id);
    if (!report) {
      report = {
        id,
        scope: resolved ? { kind: resolved.kind, name: resolved.name } : spec,
        resolved,
        formats,
        ...(rule.sections && { sections: [...rule.sections] }),
        personRows,
        readers: [],
        people,
      };
      reports.set(id, report);
    }
    for (const target of targets) {
      const recipient = target.replace(/^mailto:/i, '');
      if (isEmailTarget(recipient) && !report.readers.includes(recipient.toLowerCase())) {
        report.readers.push(recipient.toLowerCase());
      }
      // An address however written (any case, with or without mailto:) is one target.
      const key = `${id}\u0000${normalTarget(target)}`;
      if (seen.has(key)) continue; // two rules sending the same report to the same target send it once
      seen.add(key);
      deliveries.push({ report: id, recipient, target });
    }
  };

  for (const rule of plan.rules) {
    if (rule.scope !== undefined) {
      let spec: ScopeSpec;
      try {
        spec = parseScope(rule.scope);
      } catch (error) {
        throw new UsageError(`the plan: ${(error as Error).message}`);
      }
      add(rule, spec, rule.to ?? []);
      continue;
    }
    if (rule.each === 'manager') {
      for (const manager of scopeNames(index, 'manager'))
        add(rule, { kind: 'manager', name: manager }, [manager]);
      continue;
    }
    const kind = rule.each!;
    const owners = ownersOf(index, kind, rule.owner!);
    for (const name of scopeNames(index, kind)) {
      const to = owners.get(name) ?? [];
      if (to.length === 0) {
        heldBack.set(`${kind}:${name}`, {
          scope: `${kind}:${name}`,
          people: 0,
          reason: `no owner: the directory's column "${rule.owner}" is empty for its people`,
          recipients: [],
        });
        continue;
      }
      add(rule, { kind, name }, to);
    }
  }
  // The money no cost center owns has an owner: the organization's workbook goes to finance.
  if (plan.finance) {
    const { to, formats, people } = plan.finance;
    add({ scope: 'org', to, formats: formats ?? ['xlsx'], people: people ?? 'all' }, ORGANIZATION_SCOPE, to);
  }
  return { minGroupSize, reports: [...reports.values()], deliveries, heldBack: [...heldBack.values()] };
}

/** The shard (1..n) a recipient falls in: the same recipient always in the same shard. */
export function shardOf(recipient: string, shards: number): number {
  // FNV-1a over the lower-cased recipient: stable across runs, machines and Node versions.
  let hash = 0x811c9dc5;
  for (const ch of recipient.toLowerCase()) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash % shards) + 1;
}
