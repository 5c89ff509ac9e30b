/**
 * The "what changed" paragraph in words, from the model's facts (`model.whatChanged`), with the
 * report's formatter: the PDF, the HTML and the e-mail tell it the same way.
 */
import type { ChangeFact, ReportModel } from '@orgreport/metrics';
import { formatFigure, formatFigureChange, formatList, formatValue } from './format.ts';

const plural = (n: number, one: string, many = `${one}s`) =>
  `${formatValue(n, 'integer')} ${n === 1 ? one : many}`;

/** A name in the possessive: `Team Platform’s`, `Team Payments’`. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}\u2019` : `${name}\u2019s`;
}

/** `in 2 of the month's 5 enterprise-control changes`, or all of them, in the figure's own words. */
function inRevisions(revisions: number, of: number): string {
  if (of <= 1) return "in the month's one enterprise-control change";
  if (revisions >= of)
    return `in all ${formatValue(of, 'integer')} of the month's enterprise-control changes`;
  return `in ${formatValue(revisions, 'integer')} of the month's ${plural(of, 'enterprise-control change')}`;
}

/** Settings named in the sentence at most: a usual month's all of them, a busy month's first ones, then how many more. */
const NAMED_SETTINGS = 6;

type UsersFact = Extract<ChangeFact, { kind: 'users' }>;

/** `1 new, 0 no longer active` (and who moved in and out of a scope): who makes up the month's active users. */
const turnover = (fact: UsersFact) =>
  [
    `${formatValue(fact.new, 'integer')} new`,
    ...(fact.movedIn ? [`${formatValue(fact.movedIn, 'integer')} moved in`] : []),
    `${formatValue(fact.lost, 'integer')} no longer active`,
    ...(fact.movedOut ? [`${formatValue(fact.movedOut, 'integer')} moved out`] : []),
  ].join(', ');

function sentence(fact: ChangeFact, scope: string | null, activeTurnover?: UsersFact): string {
  switch (fact.kind) {
    case 'security':
      // Settings are counted once however often they changed; how often is told in revisions, the
      // unit of the "Enterprise-control changes" figure beside the paragraph.
      return `${plural(fact.paths.length, 'security-relevant enterprise setting')} changed this month${fact.organizations?.length ? ` in ${formatList(fact.organizations)}` : ''}, ${inRevisions(fact.revisions, fact.ofRevisions)} (${formatList(fact.paths, NAMED_SETTINGS)}): see Enterprise controls.`;
    case 'figure': {
      const f = fact.figure;
      const verb = (f.change ?? 0) > 0 ? 'rose' : 'fell';
      const who = f.id === 'active_users' && activeTurnover ? `: ${turnover(activeTurnover)}` : '';
      return `${f.label} ${verb} ${formatFigureChange(f).replace(/^[\u25B2\u25BC] [+-]?/, '')} to ${formatFigure(f)} (from ${formatFigure({ value: f.previous, unit: f.unit })})${who}.`;
    }
    case 'users':
      return `${plural(fact.active, 'active user')}: ${turnover(fact)}.`;
    case 'reclaim':
      return `${plural(fact.dormant, 'seat')} of ${formatValue(fact.seats, 'integer')} had no activity${fact.candidates > 0 ? `; ${plural(fact.candidates, 'was', 'were')} idle the month before too and could be reclaimed` : ''}.`;
    case 'readiness-level':
      return `${scope !== null ? `The readiness level of ${possessive(scope)} repositories` : "The organization's readiness level"} ${fact.to > fact.from ? 'rose' : 'fell'} from ${fact.from} to ${fact.to} (${plural(fact.repos, 'repository', 'repositories')}).`;
  }
}

/**
 * The sentences of the paragraph, in the model's order; one sentence saying so when there is no
 * comparison month.
 *
 * @example
 * whatChangedSentences(model) // ['Credits consumed rose 13.2% to 1,299,456,839 (from 1,147,993,956).', ...]
 */
export function whatChangedSentences(
  model: Pick<ReportModel, 'whatChanged' | 'comparisonHasData'> & Partial<Pick<ReportModel, 'scope'>>,
): string[] {
  if (!model.comparisonHasData) return ['There is no previous month to compare with.'];
  // When active users are among the figures that moved, who came and went ends that sentence
  // ("Active users rose 25.0% to 5 (from 4): 1 new, 0 no longer active.") instead of naming the
  // active users again in a sentence of their own.
  const users = model.whatChanged.find((f): f is UsersFact => f.kind === 'users');
  const moved = model.whatChanged.some((f) => f.kind === 'figure' && f.figure.id === 'active_users');
  const joined = moved ? users : undefined;
  const sentences = model.whatChanged
    .filter((f) => f !== joined)
    .map((f) => sentence(f, model.scope?.label ?? null, joined));
  const told =
    sentences.length > 0
      ? sentences
      : ['No figure moved by 10 % (or 2 points) or more on the previous month.'];
  // A scoped report speaks of its scope: the paragraph says whose figures it tells.
  return model.scope
    ? [`${model.scope.label} (${plural(model.scope.people, 'person', 'people')}):`, ...told]
    : told;
}
