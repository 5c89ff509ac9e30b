/**
 * What to do this month, in words: the brief's action facts (`model.sections.brief.actions`) with
 * the report's formatter, so that the PDF, the HTML, the mail and the chat messages say the same.
 */
import type { ActionFact, BriefSection, PersonRef, ReportModel } from '@orgreport/metrics';
import { shortText } from './display-text.ts';
import { formatCurrency, formatList, formatRepository, formatValue } from './format.ts';

/** One action as a reader reads it. */
export interface ActionText {
  kind: ActionFact['kind'];
  /** A short imperative (`Reclaim 4 seats`). */
  title: string;
  /** The evidence, with the amount where money is at stake. */
  text: string;
  /** The people it is about, by name (none for a reader of groups). */
  people: string[];
  /** People left out of `people` for length. */
  morePeople: number;
}

/** People named in an action at most; the People page lists them all. */
export const MAX_NAMED = 8;
/** The longest name an action shows. */
const MAX_NAME = 80;
/** Repositories a readiness action names at most; the Readiness page lists them all. */
const MAX_REPOSITORIES = 4;

const int = (n: number) => formatValue(n, 'integer');
const pct = (n: number | null) => formatValue(n, 'share');
const plural = (n: number, one: string, many = `${one}s`) => `${int(n)} ${n === 1 ? one : many}`;

/** A person by name; by e-mail where the name is unknown or shared with another person of the list. */
export function personLabel(
  p: PersonRef & { user_id?: string; id?: string },
  shared: ReadonlySet<string> = new Set(),
): string {
  if (!p.name) return p.email ?? p.user_id ?? p.id ?? 'someone';
  return shared.has(p.name) && p.email ? `${p.name} (${p.email})` : p.name;
}

/** The names that stand for more than one person (by e-mail) among `people`. */
export function sharedNames(people: Iterable<PersonRef>): Set<string> {
  // A name's first e-mail is enough: any other makes it shared (no set of e-mails per name, which
  // at 88,000 people was half the page's time).
  const firstEmail = new Map<string, string>();
  const shared = new Set<string>();
  for (const p of people) {
    if (!p.name) continue;
    const email = p.email ?? '';
    const first = firstEmail.get(p.name);
    if (first === undefined) firstEmail.set(p.name, email);
    else if (first !== email) shared.add(p.name);
  }
  return shared;
}

function named(people: readonly PersonRef[]): Pick<ActionText, 'people' | 'morePeople'> {
  const shared = sharedNames(people);
  return {
    people: people.slice(0, MAX_NAMED).map((p) => shortText(personLabel(p, shared), MAX_NAME)),
    morePeople: Math.max(0, people.length - MAX_NAMED),
  };
}

function monthName(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
}

function actionText(a: ActionFact, model: ReportModel): ActionText {
  switch (a.kind) {
    case 'reclaim':
      return {
        kind: a.kind,
        title: `Reclaim ${plural(a.seats, 'seat')}`,
        text: `${a.seats === 1 ? 'It was' : 'They were'} not used this month nor in ${monthName(a.idleSince)}${a.saving !== null && a.currency ? `: ${formatCurrency(a.saving, a.currency)} a month saved at the seat price` : ''}.`,
        ...named(a.people),
      };
    case 'help':
      return {
        kind: a.kind,
        title: `Offer help to ${plural(a.people, 'person', 'people')}`,
        text: `They used the agent on only one or two days this month; ask what is in the way.`,
        ...named(a.names),
      };
    case 'budget': {
      const whose =
        a.source === 'limits'
          ? "of your people's credit limits"
          : `of the ${a.source === 'team' ? "team's" : "cost center's"} monthly budget`;
      const cost = model.pricing
        ? ` (${formatCurrency(a.budget * model.pricing.pricePerCredit, model.pricing.currency)})`
        : '';
      const forecast =
        a.forecast !== null
          ? ` On course for ${int(a.forecast)} by the month's end: ${pct(a.budget > 0 ? a.forecast / a.budget : null)} of it.`
          : '';
      const over =
        a.over100 > 0 || a.over80 > 0
          ? ` ${a.over100 > 0 ? `${plural(a.over100, 'person', 'people')} reached their limit` : ''}${a.over100 > 0 && a.over80 > 0 ? '; ' : ''}${a.over80 > 0 ? `${plural(a.over80, 'more is', 'more are')} above 80 % of it` : ''}.`
          : '';
      const share = a.share ?? 0;
      const title =
        share >= 1 || (a.forecast !== null && a.forecast >= a.budget)
          ? 'Review the budget: credits are over it'
          : share >= 0.8
            ? 'Watch the budget'
            : 'Credits are within the budget';
      return {
        kind: a.kind,
        title,
        text: `${int(a.credits)} credits used: ${pct(a.share)} ${whose} of ${int(a.budget)}${cost}.${forecast}${over}`,
        ...named(a.over100People),
      };
    }
    case 'readiness':
      return {
        kind: a.kind,
        title: `Work on "${a.criterion}"`,
        text: `It is the weakest readiness criterion in your repositories: passed in ${int(a.passed)} of ${plural(a.evaluated, 'repository', 'repositories')}${a.meanScore !== null ? `, mean score ${pct(a.meanScore)}` : ''}${a.level !== null ? ` (a level-${a.level} criterion)` : ''}.${a.failing.length > 0 ? ` Not passed in ${formatList(a.failing.map(formatRepository), MAX_REPOSITORIES)}.` : ''}`,
        people: [],
        morePeople: 0,
      };
  }
}

/**
 * The actions of a scoped report in words, in the brief's order; none for the organization's report.
 *
 * @example
 * reportActions(model)[0] // { kind: 'reclaim', title: 'Reclaim 4 seats', text: 'They were not used ...', people: ['Ann Lee', ...] }
 */
export function reportActions(model: ReportModel): ActionText[] {
  const brief = model.sections?.['brief'] as BriefSection | undefined;
  return (brief?.actions ?? []).map((a) => actionText(a, model));
}
