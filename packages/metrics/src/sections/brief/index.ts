/**
 * The brief ("This month"): the page a scoped report opens with and a reader can act on. The
 * scope's headline figures beside the organization's, what changed, and what to do this month,
 * each action computed from the scope's own rows and settings with its evidence and, where money
 * is at stake, the amount: seats idle two whole months to reclaim (their monthly saving at the seat
 * price), people who used the agent on one or two days (offer help), credits against the budget
 * and the month-end forecast, the weakest readiness criterion of the scope's repositories. An
 * action names people only where the reader may see their rows, and never stands for a group of
 * people under the minimum group size. Nothing in the organization's own report.
 */
import { fileURLToPath } from 'node:url';
import { type Run, runOf } from '../../internal/run.ts';
import type { FigureId } from '../../model.ts';
import type { SectionPrivacy } from '../../privacy.ts';
import { defineSection, type SectionContext } from '../../section.ts';
import { chargebackOf } from '../chargeback/index.ts';
import { LOW_ACTIVITY_DAYS, lowActivityPeople, type PersonRef } from '../people/index.ts';
import { readinessOf } from '../readiness/index.ts';

/** One thing to do this month, with its evidence (see the module's description). */
export type ActionFact =
  | {
      kind: 'reclaim';
      /** Seats idle in the period and the whole month before. */
      seats: number;
      /** The month before's first day: idle since then. */
      idleSince: string;
      /** The seats' holders (withheld from a reader of groups). */
      people: PersonRef[];
      /** seats x price per seat, a month; null without a seat price. */
      saving: number | null;
      currency: string | null;
    }
  | {
      kind: 'help';
      /** People active on at least one and at most `maxDays` days. */
      people: number;
      maxDays: number;
      names: PersonRef[];
    }
  | {
      kind: 'budget';
      /** Credits of the period (of the people with a limit, for `limits`). */
      credits: number;
      budget: number;
      /** Where the budget comes from: the team's or cost center's monthly budget, or the people's credit limits. */
      source: 'team' | 'cost-center' | 'limits';
      /** credits / budget. */
      share: number | null;
      /** The month-end forecast of a partial month; null for a whole month (or without a forecast). */
      forecast: number | null;
      /** People at or over 100 % of their credit limit, and those of them the reader may see. */
      over100: number;
      over100People: PersonRef[];
      /** People over 80 % of their limit, below 100 %. */
      over80: number;
    }
  | {
      kind: 'readiness';
      criterion: string;
      level: number | null;
      meanScore: number | null;
      passed: number;
      evaluated: number;
      /** The repositories whose latest report scores the criterion below its full mark, by URL. */
      failing: string[];
    };

export interface BriefSection {
  /** The figures of the cards, the scope's beside the organization's. */
  headline: FigureId[];
  /**
   * The scope's money this month: its share of the organization's one allocation (the chargeback's
   * total), so the brief, the chargeback and every cost center's bill agree; null without a price or
   * a directory.
   */
  cost: { credit_cost: number | null; seat_cost: number | null; total_cost: number | null } | null;
  actions: ActionFact[];
}

/** The brief's cards. */
export const BRIEF_FIGURES: ReadonlyArray<FigureId> = [
  'credits',
  'active_users',
  'seat_utilization',
  'sessions',
  'git_prs_created',
  'autonomy_mean',
];

const person = (p: { name: string | null; email: string | null }): PersonRef => ({
  name: p.name,
  email: p.email,
});

/** A record's value for `name` in any letter case. */
function byName(record: Readonly<Record<string, number>> | undefined, name: string): number | null {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(record ?? {})) if (k.toLowerCase() === wanted) return v;
  return null;
}

function reclaimAction(context: SectionContext, run: Run): ActionFact | null {
  const seats = run.current.seats.dormant_users.filter((d) => d.reclaim);
  if (seats.length === 0 || !run.comparison) return null;
  const price = context.options.pricePerSeat;
  const priced = typeof price === 'number' && price > 0;
  return {
    kind: 'reclaim',
    seats: seats.length,
    idleSince: run.comparison.start,
    people: seats.map(person),
    saving: priced ? Math.round(seats.length * price * 100) / 100 : null,
    currency: priced ? (run.pricing?.currency ?? context.options.currency ?? null) : null,
  };
}

function helpAction(run: Run): ActionFact | null {
  const low = lowActivityPeople(run);
  if (low.length === 0) return null;
  return { kind: 'help', people: low.length, maxDays: LOW_ACTIVITY_DAYS, names: low.map(person) };
}

function budgetAction(context: SectionContext, run: Run): ActionFact | null {
  const scope = context.scope!;
  const budgets = context.inputs.budgets;
  const named =
    scope.kind === 'team'
      ? byName(budgets?.teams, scope.name)
      : scope.kind === 'cost-center'
        ? byName(budgets?.costCenters, scope.name)
        : null;
  const limited = run.users.filter((u) => u.credit_limit !== null);
  const over100People = limited.filter((u) => u.over_100).map(person);
  const over100 = over100People.length;
  const over80 = limited.filter((u) => u.over_80 && !u.over_100).length;
  if (named !== null) {
    const credits = run.current.values.credits ?? 0;
    return {
      kind: 'budget',
      credits,
      budget: named,
      source: scope.kind === 'team' ? 'team' : 'cost-center',
      share: named > 0 ? credits / named : null,
      forecast: forecastOf(context, run),
      over100,
      over100People,
      over80,
    };
  }
  if (limited.length === 0) return null;
  const credits = limited.reduce((a, u) => a + u.credits, 0);
  const budget = limited.reduce((a, u) => a + u.credit_limit!, 0);
  return {
    kind: 'budget',
    credits,
    budget,
    source: 'limits',
    share: budget > 0 ? credits / budget : null,
    forecast: null,
    over100,
    over100People,
    over80,
  };
}

/** The month-end forecast of the scope's credits, for a month not over yet. */
function forecastOf(context: SectionContext, run: Run): number | null {
  const forecast = context.inputs.forecastCredits;
  if (!forecast || !run.period.endsEarly) return null;
  const values = new Map(run.daily.filter((d) => d.hasData).map((d) => [d.date, d.credits]));
  return forecast(values, run.period.end);
}

function readinessAction(run: Run): ActionFact | null {
  const weakest = readinessOf(run).weakest[0];
  if (!weakest) return null;
  return {
    kind: 'readiness',
    criterion: weakest.criterion,
    level: weakest.level,
    meanScore: weakest.mean_score,
    passed: weakest.passed,
    evaluated: weakest.evaluated,
    failing: run.current.repos
      .filter((r) => r.criteria.some((c) => c.criterion === weakest.criterion && c.status === 'partial'))
      .map((r) => r.repo_url),
  };
}

/** The brief of a scoped report; null in the organization's. */
export function computeBrief(context: SectionContext): BriefSection | null {
  if (!context.scope) return null;
  const run = runOf(context);
  const actions = [
    reclaimAction(context, run),
    budgetAction(context, run),
    helpAction(run),
    readinessAction(run),
  ].filter((a): a is ActionFact => a !== null);
  const total = chargebackOf(context)?.total;
  const cost =
    total && total.total_cost !== null
      ? { credit_cost: total.credit_cost, seat_cost: total.seat_cost, total_cost: total.total_cost }
      : null;
  return { headline: [...BRIEF_FIGURES], cost, actions };
}

/**
 * The actions as a reader may see them: no person named to a reader of groups, and no action that
 * stands for fewer people than the minimum group size.
 */
export function protectBrief(data: BriefSection | null, rules: SectionPrivacy): BriefSection | null {
  if (!data || rules.personRows) return data;
  const actions = data.actions.flatMap((a): ActionFact[] => {
    if (a.kind === 'reclaim') return [{ ...a, people: [] }];
    if (a.kind === 'budget') return [{ ...a, over100People: [] }];
    if (a.kind === 'help') {
      if (a.people < rules.minGroupSize) {
        rules.heldBack('Actions: people active on one or two days', 1, a.people);
        return [];
      }
      return [{ ...a, names: [] }];
    }
    return [a];
  });
  return { ...data, actions };
}

export const brief = defineSection<BriefSection | null>({
  id: 'brief',
  title: 'This month',
  short: true,
  compute: computeBrief,
  privacy: protectBrief,
  definitions: [
    {
      id: 'actions',
      term: 'What to do this month',
      text: `The actions of a report for a set of people come from its own rows and settings. Reclaim: seats that existed before the month before began and had no activity in either month (a seat created since is never one), with the monthly saving at the price per seat. Help: people active on one or two days of the period. Budget: the period\u2019s credits against the team\u2019s or cost center\u2019s monthly budget (the config file\u2019s watch.budgets), else against the sum of the credit limits of its people who have one, with the month-end forecast of a partial month (the watch\u2019s forecast). Readiness: the criterion with the lowest mean score across the latest reports of the scope\u2019s repositories. An action names people only where the reader may see their rows. For a reader of groups, the help action is left out when it is about fewer people than the minimum group size; the reclaim and budget actions count the scope\u2019s seats and credits, which its own pages count too, and name nobody.`,
    },
  ],
  partial: { file: fileURLToPath(new URL('./brief.hbs', import.meta.url)) },
});
