/**
 * The people directory (`--directory FILE`): a CSV or XLSX with a header row naming `email`, `team`,
 * `cost_center` and `manager` (any case, any order); other named columns are kept as attributes
 * (`repositories`, `;`-separated URLs, names the team's repositories). An optional `valid_from`
 * column makes it effective-dated: a person who moved has a row per spell, each from its day. Every
 * row is checked before anything is fetched, and every problem is named by its row.
 */

import { isIsoDate } from '@orgreport/api-core/dates';
import type { DirectoryPerson, PeopleDirectory } from '@orgreport/metrics';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { readTableFile, type TableFile } from '../input/table-file.ts';

/** The columns a directory must have. */
export const DIRECTORY_COLUMNS = ['email', 'team', 'cost_center', 'manager'] as const;

/** The optional column of an effective-dated directory: the first day a row holds (`YYYY-MM-DD`). */
export const VALID_FROM = 'valid_from';

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
  const validFromCol = header.indexOf(VALID_FROM);
  const attributeCols = header.flatMap((name, i) =>
    name !== '' &&
    name !== VALID_FROM &&
    !(DIRECTORY_COLUMNS as readonly string[]).includes(name) &&
    header.indexOf(name) === i
      ? [i]
      : [],
  );
  // A person may have several rows when the directory is effective-dated, one per valid_from.
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
    const validFrom = validFromCol < 0 ? '' : text(cells[validFromCol]);
    if (validFrom && !isIsoDate(validFrom)) {
      rowProblems.push(`valid_from ${JSON.stringify(validFrom)} is not a day as YYYY-MM-DD`);
    }
    if (!email) rowProblems.push('email is empty');
    else if (!emailSchema.safeParse(email).success)
      rowProblems.push(`email ${JSON.stringify(email)} is not an e-mail address`);
    else {
      const key = `${email.toLowerCase()}\u0000${validFrom}`;
      const first = seen.get(key);
      if (first !== undefined) {
        rowProblems.push(
          `${email} is listed again${validFrom ? ` from ${validFrom}` : ''} (first on row ${first}); a person who moved needs a valid_from day on each later row`,
        );
      } else seen.set(key, row);
    }
    const manager = text(cells[col('manager')]);
    if (manager && !emailSchema.safeParse(manager).success) {
      rowProblems.push(`manager ${JSON.stringify(manager)} is not an e-mail address`);
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
      manager: manager || null,
      repositories: (attributes.repositories ?? '').split(/[;\s]+/).filter(Boolean),
      attributes,
      validFrom: validFrom || null,
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
  return file === undefined ? undefined : readDirectory(file, `--directory ${file}`);
}
