/**
 * What makes a scoped report's model differ from the organization's beyond its rows: each figure
 * made by its rule for a set of people (see figure-rules.ts), with the organization's value beside
 * it for comparison; the scope as the report names it; and the definitions of scoped figures.
 */
import { FIGURE_RULES } from '../figure-rules.ts';
import type { ChangeFact, Definition, Figure, ReportModel, ReportScope } from '../model.ts';
import type { ResolvedScope } from '../scope.ts';
import type { ReportSection, SectionInputs, SectionScopeMode } from '../section.ts';
import type { NameOf } from './transforms/people-names.ts';

/** The run's inputs as a scope's sections see them: the directory's rows of the scope's people alone. */
export function scopedInputs(inputs: SectionInputs, scope: ResolvedScope): SectionInputs {
  const { directory } = inputs;
  if (!directory) return inputs;
  return {
    ...inputs,
    directory: {
      source: directory.source,
      people: directory.people.filter((p) => scope.members[p.email.toLowerCase()] !== undefined),
    },
  };
}

/**
 * The scope's figures by their rules: summed and recomputed figures as the scope's rows give them,
 * with the organization's value beside them; an organization figure (controls) is the
 * organization's own, labelled; one the API cannot give for a set of people is null with the reason.
 */
export function scopedFigures(figures: readonly Figure[], organization: ReportModel | undefined): Figure[] {
  const ofOrganization = new Map(organization?.figures.map((f) => [f.id, f]));
  return figures.map((f): Figure => {
    const rule = FIGURE_RULES[f.id].people;
    const org = ofOrganization.get(f.id);
    if (rule.rule === 'unavailable') {
      return {
        ...f,
        value: null,
        previous: null,
        change: null,
        unavailableReason: `Not available for a set of people: ${rule.reason}.`,
      };
    }
    if (rule.rule === 'organization' || rule.rule === 'per-organization') {
      const label = `${f.label} (organization)`;
      return org
        ? { ...org, label, note: `The organization's figure: ${rule.reason}.` }
        : {
            ...f,
            label,
            value: null,
            previous: null,
            change: null,
            note: `The organization's figure (${rule.reason}); not given.`,
          };
    }
    // The scope's own figure: a label naming the organization names the scope's repositories instead.
    const label = f.label.replace(' (organization)', '');
    return org ? { ...f, label, organization: org.value } : { ...f, label };
  });
}

/** The "what changed" facts of a scope: each figure as the scope's report labels it. */
export function scopedChangeFacts(facts: readonly ChangeFact[], figures: readonly Figure[]): ChangeFact[] {
  const byId = new Map(figures.map((f) => [f.id, f]));
  return facts.map((fact) =>
    fact.kind === 'figure'
      ? { kind: 'figure', figure: { ...(byId.get(fact.figure.id) ?? fact.figure) } }
      : fact,
  );
}

/**
 * The scope as the model records it: a manager's scope is named by the manager's name where the
 * organization's users give one ("Amari Thompson's organization"), else by their e-mail.
 */
export function reportScope(
  scope: ResolvedScope,
  sections: ReadonlyArray<ReportSection>,
  modeOf: (s: ReportSection) => SectionScopeMode,
  context: { organization: ReportModel | undefined; nameOf: NameOf },
): ReportScope {
  if (scope.kind === 'org') throw new RangeError('the organization is no scope');
  const managerName = scope.kind === 'manager' ? context.nameOf({ email: scope.name }) : null;
  const { organization } = context;
  return {
    kind: scope.kind,
    name: scope.name,
    label: managerName ? `${managerName}\u2019s organization` : scope.label,
    slug: scope.slug,
    people: scope.people,
    organizationSections: sections.filter((s) => modeOf(s) === 'organization').map((s) => s.id),
    omittedSections: sections.filter((s) => modeOf(s) === 'omit').map((s) => s.id),
    organizationOnly: organization
      ? sections
          .filter((s) => modeOf(s) !== 'omit')
          .flatMap((s) => s.organizationContext?.(organization) ?? [])
          .map((b) => b.id)
      : [],
    ...(scope.kind === 'manager' && { manager: { email: scope.name, name: managerName } }),
  };
}

/** The definitions a scoped report adds. */
export const SCOPE_DEFINITIONS: ReadonlyArray<Definition> = [
  {
    id: 'scope',
    term: 'Scope',
    text: 'This report is for a set of people from the people directory: a team, a cost center, or everyone under a manager (through every level of the manager column; the manager themself is not counted). A person counts on the days the directory puts them in the scope: an effective-dated directory (valid_from) moves a person who changed team on the day of the move, so teams still partition the month. Figures the API gives per user (credits, tool calls, sessions, messages, commits, pull requests, active users, daily and trailing active users, stickiness, autonomy and delegation, seats, dormant seats, readiness of the scope\u2019s repositories, teams and chargeback) are computed from the scope\u2019s /users rows and seats alone; the organization\u2019s value stands beside them for comparison. What the API gives only for the whole organization (tokens by kind, tools, MCP servers, skills, commands and hooks, productivity by language and extension, DAU by client, the autonomy-level mix, enterprise controls, the trend) is either left out or shown once as organization context, labelled so.',
  },
];
