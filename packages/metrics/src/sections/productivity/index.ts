/** Productivity: files created and edited, commits and pull requests, by language and file extension. */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { productivityBreakdown } from '../../internal/transforms/productivity.ts';
import { languageUserDays } from '../../internal/transforms/scope-breakdowns.ts';
import { builtinSection } from '../builtin.ts';

/** Most files by extension the organization-context page lists. */
const CONTEXT_TOP = 5;

export const productivity = builtinSection('productivity', {
  id: 'productivity',
  title: 'Productivity',
  compute: (context) => {
    const run = runOf(context);
    if (!context.scope) return productivityBreakdown(run.rows.productivity);
    // A scope's counts are the sums of its rows; its languages are the user-days that name them;
    // files by extension are the organization's only (its context page).
    const v = run.current.values;
    return {
      files_created: v.files_created ?? 0,
      files_edited: v.files_edited ?? 0,
      git_commits: v.git_commits ?? 0,
      git_prs_created: v.git_prs_created ?? 0,
      byLanguage: languageUserDays(run.periodRows, run.userDays),
      byExtension: [],
    };
  },
  organizationContext: (organization) => [
    {
      id: 'productivity.byExtension',
      title: 'Files by extension',
      rows: organization.productivity.byExtension
        .slice(0, CONTEXT_TOP)
        .map((e) => ({ label: e.name, value: e.count, kind: 'integer' as const })),
    },
  ],
  definitions: [
    {
      id: 'productivity',
      term: 'Productivity',
      text: 'Files created and edited, commits and pull requests created by the agent: sums of the /productivity days, with files by language and by extension from their breakdowns. In a report for a set of people, the counts are the sums of the people\u2019s /users rows; languages count the people\u2019s active user-days that name each language (the rows\u2019 languages), not files; files by extension exist for the whole organization only and stand on the organization-context page.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./productivity.hbs', import.meta.url)) },
});
