/**
 * The report's sections from the configuration: built-in ids and names of installed packages that
 * export a section (`export const section = defineSection({...})`, or as the default export),
 * resolved from the working folder. Loaded before anything is fetched, so a wrong name fails first.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReportSection } from '@orgreport/metrics';
import { UsageError } from '../errors.ts';

/** The sections named by `names` in that order, or undefined (the built-in ones) when none are named. */
export async function loadSections(
  names: ReadonlyArray<string> | undefined,
  cwd: string,
): Promise<ReportSection[] | undefined> {
  if (!names) return undefined;
  const { BUILTIN_SECTIONS, defineSection } = await import('@orgreport/metrics');
  const builtin = new Map(BUILTIN_SECTIONS.map((s) => [s.id, s]));
  const sections: ReportSection[] = [];
  for (const name of names) {
    const known = builtin.get(name);
    if (known) {
      sections.push(known);
      continue;
    }
    let resolved: string;
    try {
      resolved = createRequire(join(cwd, 'package.json')).resolve(name);
    } catch {
      throw new UsageError(
        `sections: "${name}" is neither a built-in section (${[...builtin.keys()].join(', ')}) nor a package installed in ${cwd}; install it (npm install ${name}) or fix the name`,
      );
    }
    const module = (await import(pathToFileURL(resolved).href)) as { section?: unknown; default?: unknown };
    const declared = module.section ?? module.default;
    if (declared === undefined) {
      throw new UsageError(
        `sections: the package "${name}" exports no section (export const section = defineSection({ ... }))`,
      );
    }
    try {
      sections.push(defineSection(declared as ReportSection));
    } catch (error) {
      throw new UsageError(`sections: the package "${name}": ${(error as Error).message}`, { cause: error });
    }
  }
  const ids = sections.map((s) => s.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new UsageError(`sections: "${twice}" is named twice`);
  return sections;
}
