/**
 * The people directory (`--directory FILE`): a CSV or XLSX with a header row naming `email`, `team`,
 * `cost_center` and `manager` (any case, any order); other named columns are kept as attributes
 * (`repositories`, `;`-separated URLs, names the team's repositories). Every row is checked before
 * anything is fetched, and every problem is named by its row.
 */

import type { DirectoryPerson, PeopleDirectory } from '@orgreport/metrics';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { readTableFile, type TableFile } from '../input/table-file.ts';

/** The columns a directory must have. */
export const DIRECTORY_COLUMNS = ['email', 'team', 'cost_center', 'manager'] as const;

/** Row problems listed at most in one message (the count says how many there are). */
const MAX_LISTED = 20;

const emailSchema = z.email();

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

/** Checks a directory table; throws a {@link UsageError} naming every problem (rows by number). */
export function checkDirectory(table: TableFile, source: string): PeopleDirectory {
  const header = table.header.map((h) => text(h).toLowerCase());
  const problems: string[] = [];
  header.forEach((name, i) => {
    if (name === '' && table.rows.some((r) => text(r.cells[i]) !== '')) {
      problems.push(`column ${i + 1} has values but no name in the header row`);
    }
    const first = header.indexOf(name);
    if (name !== '' && first !== i) problems.push(`the header names the column "${name}" twice`);
  });
  const missing = DIRECTORY_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new UsageError(
      `${source}: the header row must name the columns ${DIRECTORY_COLUMNS.join(', ')} (any case, any order; other columns are kept as attributes); it lacks ${missing.join(', ')} (got ${JSON.stringify(table.header)})`,
    );
  }
  const col = (name: string) => header.indexOf(name);
  const attributeCols = header.flatMap((name, i) =>
    name !== '' && !(DIRECTORY_COLUMNS as readonly string[]).includes(name) && header.indexOf(name) === i
      ? [i]
      : [],
  );
  const seen = new Map<string, number>();
  const people: DirectoryPerson[] = [];
  for (const { row, cells } of table.rows) {
    const rowProblems: string[] = [];
    const email = text(cells[col('email')]);
    const team = text(cells[col('team')]);
    const costCenter = text(cells[col('cost_center')]);
    if (cells.length > header.length && cells.slice(header.length).some((c) => text(c) !== '')) {
      rowProblems.push(`has ${cells.length} values but the header names ${header.length} columns`);
    }
    if (!email) rowProblems.push('email is empty');
    else if (!emailSchema.safeParse(email).success)
      rowProblems.push(`email ${JSON.stringify(email)} is not an e-mail address`);
    else {
      const first = seen.get(email.toLowerCase());
      if (first !== undefined) rowProblems.push(`${email} is listed again (first on row ${first})`);
      else seen.set(email.toLowerCase(), row);
    }
    if (!team) rowProblems.push('team is empty');
    if (!costCenter) rowProblems.push('cost_center is empty');
    if (rowProblems.length > 0) {
      problems.push(`row ${row}: ${rowProblems.join('; ')}`);
      continue;
    }
    const attributes = Object.fromEntries(attributeCols.map((i) => [header[i]!, text(cells[i])]));
    people.push({
      email,
      team,
      costCenter,
      manager: text(cells[col('manager')]) || null,
      repositories: (attributes.repositories ?? '').split(/[;\s]+/).filter(Boolean),
      attributes,
    });
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `  ${p}`);
    if (problems.length > MAX_LISTED) listed.push(`  ... and ${problems.length - MAX_LISTED} more`);
    throw new UsageError(
      `${source}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the people directory (nothing was fetched); fix them and run again:\n${listed.join('\n')}`,
    );
  }
  if (people.length === 0) throw new UsageError(`${source}: the people directory lists nobody`);
  return { source, people };
}

/** Reads and checks the directory file at `path` (`shown` names it in messages). */
export async function readDirectory(path: string, shown: string): Promise<PeopleDirectory> {
  return checkDirectory(await readTableFile(path, shown), shown);
}

/** The run's directory when one is configured (read and checked before anything is fetched). */
export async function loadDirectory(file: string | undefined): Promise<PeopleDirectory | undefined> {
  return file === undefined ? undefined : readDirectory(file, file);
}
