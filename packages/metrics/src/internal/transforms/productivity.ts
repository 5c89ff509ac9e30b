/**
 * Productivity of a span: file and git counts, and files by language and by extension.
 */
import type { ProductivityDay } from '@orgreport/api-core';
import type { NamedCount } from '../../model.ts';
import { rankNamedCounts, sumByName } from './named-counts.ts';

/**
 * Totals and breakdowns of the `/productivity` days (breakdown shares are of the breakdown's own sum).
 *
 * @example
 * productivityBreakdown(days).byLanguage[0] // { name: 'TypeScript', count: 120, share: 0.6 }
 */
export function productivityBreakdown(days: readonly ProductivityDay[]): {
  files_created: number;
  files_edited: number;
  git_commits: number;
  git_prs_created: number;
  byLanguage: NamedCount[];
  byExtension: NamedCount[];
} {
  const totals = { files_created: 0, files_edited: 0, git_commits: 0, git_prs_created: 0 };
  for (const d of days) {
    totals.files_created += d.files_created;
    totals.files_edited += d.files_edited;
    totals.git_commits += d.git_commits;
    totals.git_prs_created += d.git_prs_created;
  }
  const languages = sumByName(
    days.flatMap((d) => (d.by_language ?? []).map((l) => ({ name: l.language, count: l.count }))),
  );
  const extensions = sumByName(
    days.flatMap((d) => (d.by_extension ?? []).map((e) => ({ name: e.extension, count: e.count }))),
  );
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    ...totals,
    byLanguage: rankNamedCounts(languages, sum(languages)),
    byExtension: rankNamedCounts(extensions, sum(extensions)),
  };
}
