/**
 * How to read this report: in a scoped report, one page that explains the terms a reader meets on
 * the first pages in plain words, and where the full definitions are (a link, where one is given).
 * The organization's report keeps its full definitions page instead; nothing in it.
 */
import { fileURLToPath } from 'node:url';
import { defineSection } from '../../section.ts';

export interface GuideSection {
  /** Terms in the order a reader meets them. */
  terms: Array<{ term: string; text: string }>;
  /** Where the full definitions are (the manual's, or the HTML report's own); null when none is given. */
  definitionsUrl: string | null;
}

/** The terms of the short report, in plain words. */
export const GUIDE_TERMS: GuideSection['terms'] = [
  {
    term: 'The cards',
    text: 'Each card shows this month\u2019s figure for the people of this report, its change on the previous month, and the whole organization\u2019s figure below it for comparison.',
  },
  {
    term: '\u25B2 and \u25BC',
    text: 'A rise and a fall on the previous month. The colour shows the direction only, not whether it is good: more credits is also more spend.',
  },
  {
    term: 'pp (percentage points)',
    text: 'How shares and scores change: a utilization that goes from 80 % to 85 % rose 5 pp (not 6.25 %).',
  },
  {
    term: 'Credits',
    text: 'What the service bills: the sum of the people\u2019s credits over the month. Cost = credits \u00d7 the price per credit.',
  },
  {
    term: 'Active users',
    text: 'People with at least one tool call, message or session in the month, each counted once.',
  },
  {
    term: 'Stickiness',
    text: 'Average daily active users (DAU) \u00f7 the month\u2019s active users: how many of the people who use the agent at all use it on a given day.',
  },
  {
    term: 'WAU and MAU',
    text: 'Weekly and monthly active users: people active in the 7 and the 30 days up to a day.',
  },
  {
    term: 'Autonomy ratio',
    text: 'Tool calls per message a person writes: how much the agent does on its own per instruction. The report shows the mean over the people.',
  },
  {
    term: 'Seat utilization and dormant seats',
    text: 'Active users \u00f7 seats at the month\u2019s end; for a team, a manager\u2019s people or a cost center, seats used \u00f7 seats (a seat is used when its holder used the agent, there or before moving in). A dormant seat had no activity this month; one that also had none the whole month before is one to reclaim.',
  },
  {
    term: 'Readiness score and level',
    text: 'How ready the repositories are for the agent, from the service\u2019s readiness reports: each criterion (its id, such as pre_commit_hooks) scores its numerator \u00f7 denominator as the report gives them (the share of a repository\u2019s applications that pass it), and the score is the mean over the criteria. A repository reaches the next level (1 Functional to 5 Autonomous) by passing 80 % of a level\u2019s criteria.',
  },
  {
    term: 'Chargeback and the cents',
    text: 'The organization\u2019s cost is rounded to the cent once and shared out by the largest-remainder method: every row gets the whole cents of its exact share, and the cents left over go to the rows with the largest remainders, so the rows always add up to the invoice.',
  },
  {
    term: 'Organization context',
    text: 'Figures the API gives for the whole organization only (tokens by kind, tools by name, daily active users by client, files by extension); shown once, labelled, never as this report\u2019s.',
  },
  {
    term: 'Withheld and held back',
    text: 'A person the reader may not see is not named; a group of fewer people than the minimum group size shows no figures of its own.',
  },
];

export const guide = defineSection<GuideSection | null>({
  id: 'guide',
  title: 'How to read this report',
  short: true,
  // The same page in every scoped report; nothing in the organization's, whose definitions page is whole.
  compute: (context) =>
    context.scope
      ? { terms: GUIDE_TERMS.map((t) => ({ ...t })), definitionsUrl: context.inputs.definitionsUrl ?? null }
      : null,
  privacy: (data) => data,
  partial: { file: fileURLToPath(new URL('./guide.hbs', import.meta.url)) },
});
