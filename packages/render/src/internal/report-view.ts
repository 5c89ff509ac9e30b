/**
 * What the templates read: the report model itself plus a few presentation lists (headline cards,
 * mixes as rows, capped user lists), so templates stay free of logic. Nothing here is formatted:
 * templates format with the helpers.
 */

import {
  BRIEF_FIGURES,
  type BriefSection,
  type Figure,
  type FigureId,
  type PeopleSection,
  type ReportModel,
  type UserMonthRow,
} from '@orgreport/metrics';
import { type ActionText, reportActions, sharedNames } from '../actions.ts';
import { displaySafe } from '../display-text.ts';
import { whatChangedSentences } from '../what-changed.ts';

/** Figures shown as cards at the top of the executive summary. */
export const HEADLINE_IDS: ReadonlyArray<FigureId> = [
  'credits',
  'active_users',
  'avg_dau',
  'stickiness',
  'tool_calls',
  'sessions',
  'autonomy_mean',
  'seat_utilization',
  'readiness_org_score',
  'controls_changes',
];

/** Most users listed in the PDF and HTML (the workbook lists everyone). */
export const MAX_LISTED_USERS = 25;

/** A share of a mix as a row: label, share and (for delegation) the user count. */
export interface MixRow {
  label: string;
  share: number | null;
  count?: number;
}

/** The template context: the model under `model` plus the presentation lists. */
export interface ReportView {
  model: ReportModel;
  title: string;
  periodLabel: string;
  figures: Figure[];
  headline: Figure[];
  /** The "what changed" paragraph, sentence by sentence. */
  whatChanged: string[];
  autonomyMix: MixRow[];
  delegationMix: MixRow[];
  topUsers: UserMonthRow[];
  moreUsers: number;
  limitsGiven: boolean;
  flaggedUsers: UserMonthRow[];
  moreFlaggedUsers: number;
  dormantUsers: ReportModel['seats']['dormant_users'];
  moreDormantUsers: number;
  pricing: ReportModel['pricing'];
  /** True when the model's definitions do not already state the readiness level rule. */
  showReadinessRule: boolean;
  /** A scoped report's brief: its cards (the scope's figures with the organization's) and actions. */
  briefCards: Figure[];
  actions: ActionText[];
  /** Names that stand for more than one person in the report: those people are shown with their e-mail. */
  sharedNames: string[];
}

/** The document title: organization, report month and "partial" when it is. */
export function reportTitle(model: ReportModel): string {
  const scope = model.scope ? `, ${model.scope.label}` : '';
  return `${model.organization.name}${scope} — AI coding agent report ${model.period.month}${model.partial ? ' (partial)' : ''}`;
}

/** The period as `YYYY-MM-DD to YYYY-MM-DD`, with "partial" when it is. */
export function periodLabel(model: ReportModel): string {
  return `${model.period.start} to ${model.period.end}${model.partial ? ' (partial)' : ''}`;
}

/** Builds the template context of a model (its text made safe to display, see display-text.ts). */
export function reportView(raw: ReportModel): ReportView {
  const model = displaySafe(raw);
  const byId = new Map(model.figures.map((f) => [f.id, f]));
  const mix = model.behaviour.month.autonomyMix;
  const delegation = model.behaviour.month.delegation;
  const flagged = model.users.filter((u) => u.over_80);
  return {
    model,
    title: reportTitle(model),
    periodLabel: periodLabel(model),
    figures: model.figures,
    headline: HEADLINE_IDS.map((id) => byId.get(id)).filter((f): f is Figure => f !== undefined),
    whatChanged: whatChangedSentences(model),
    autonomyMix: [
      { label: 'auto high', share: mix.auto_high },
      { label: 'auto medium', share: mix.auto_medium },
      { label: 'auto low', share: mix.auto_low },
      { label: 'manual', share: mix.manual },
    ],
    delegationMix: Object.keys(delegation.counts).map((label) => ({
      label,
      share: delegation.shares[label] ?? null,
      count: delegation.counts[label] ?? 0,
    })),
    topUsers: model.users.slice(0, MAX_LISTED_USERS),
    moreUsers: Math.max(0, model.users.length - MAX_LISTED_USERS),
    limitsGiven: model.users.some((u) => u.credit_limit !== null),
    flaggedUsers: flagged.slice(0, MAX_LISTED_USERS),
    moreFlaggedUsers: Math.max(0, flagged.length - MAX_LISTED_USERS),
    // Reclaim candidates first: the list a manager acts on.
    dormantUsers: [...model.seats.dormant_users]
      .sort((a, b) => Number(b.reclaim) - Number(a.reclaim))
      .slice(0, MAX_LISTED_USERS),
    moreDormantUsers: Math.max(0, model.seats.dormant_users.length - MAX_LISTED_USERS),
    pricing: model.pricing,
    showReadinessRule: !model.definitions.some((d) => d.text === model.readiness.rule),
    briefCards: briefCards(model, byId),
    actions: reportActions(model),
    sharedNames: [...sharedNamesOf(model)],
  };
}

/** The brief's cards: its figures, the cost of the scope's credits first where there is a price. */
function briefCards(model: ReportModel, byId: ReadonlyMap<FigureId, Figure>): Figure[] {
  const brief = model.sections?.['brief'] as BriefSection | undefined;
  if (!brief) return [];
  return (brief.headline.length ? brief.headline : BRIEF_FIGURES)
    .map((id) => byId.get(id))
    .filter((f): f is Figure => f !== undefined);
}

/** Names shared by two people anywhere the report names people. */
function sharedNamesOf(model: ReportModel): Set<string> {
  const people = model.sections?.['people'] as PeopleSection | undefined;
  return sharedNames([
    ...model.users,
    ...model.seats.dormant_users,
    ...(people ? [...people.top, ...people.lowActivity.people, ...people.dormant.seats] : []),
  ]);
}
