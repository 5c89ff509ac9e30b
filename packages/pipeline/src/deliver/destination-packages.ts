/**
 * Destinations from the configuration: installed packages named by the `destinations` setting,
 * each exporting `destination` (or a list `destinations`, or its default export) made with
 * `defineDestination`, resolved from the working folder the way section packages are. Loaded and
 * checked before anything is fetched, so a wrong name or a bad declaration fails first, naming the
 * package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyDestination, Destinations } from '@orgreport/deliver';
import { UsageError } from '../errors.ts';

/** Where the CLI finds destination packages: their names and the folder they resolve from. */
export interface DestinationPackages {
  /** Package names (the `destinations` setting); none: the built-in destinations only. */
  names?: ReadonlyArray<string> | undefined;
  /** The folder the names resolve from (the working folder). */
  cwd: string;
}

/** What a destination package may export. */
interface DestinationModule {
  destination?: unknown;
  destinations?: unknown;
  default?: unknown;
}

const HOW =
  'export const destination = defineDestination({ ... }) (or a list, export const destinations = [...])';

/** The conditions an `import` of a package matches in Node (its ESM resolver's, without flags). */
const IMPORT_CONDITIONS = new Set(['node', 'import', 'default']);

/** The target of an `exports` entry for an `import`: a path, the first match of a list, or of conditions in their order. */
function exportTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = exportTarget(item);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [condition, item] of Object.entries(value)) {
    if (!IMPORT_CONDITIONS.has(condition)) continue;
    const target = exportTarget(item);
    if (target !== undefined) return target;
  }
  return undefined;
}

/**
 * The file `import(name)` would load from `cwd`: the package found in the `node_modules` folders
 * from `cwd` up, its `exports` read for "." with the conditions of an import (`node`, `import`,
 * `default`), else its `main`. Resolved here rather than by `require.resolve`, whose conditions
 * (`require`) would miss an ESM-only package, and rather than by `import()`, which resolves from
 * the CLI's own folder, not the working folder.
 */
function resolvePackage(name: string, cwd: string): string {
  const folders = createRequire(join(cwd, 'package.json')).resolve.paths(name) ?? [];
  const dir = folders.map((folder) => join(folder, name)).find((d) => existsSync(join(d, 'package.json')));
  if (dir === undefined) {
    throw new UsageError(
      `destinations: "${name}" is not a package installed in ${cwd}; install it (npm install ${name}) or fix the name`,
    );
  }
  let manifest: { exports?: unknown; main?: unknown };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch (error) {
    throw new UsageError(`destinations: the package "${name}" has a package.json that cannot be read`, {
      cause: error,
    });
  }
  const { exports } = manifest;
  const dot =
    exports !== null && typeof exports === 'object' && !Array.isArray(exports) && '.' in exports
      ? (exports as Record<string, unknown>)['.']
      : exports;
  const entry =
    exports === undefined
      ? typeof manifest.main === 'string'
        ? manifest.main
        : 'index.js'
      : exportTarget(dot);
  if (entry === undefined) {
    throw new UsageError(
      `destinations: the package "${name}" exports nothing an import can load (its exports map has no "import" or "default" entry for ".")`,
    );
  }
  const path = resolve(dir, entry);
  if (!existsSync(path)) {
    throw new UsageError(`destinations: the package "${name}" names ${entry} as its entry, which is missing`);
  }
  return path;
}

/** The declarations a package's module exports, as it exports them (unchecked). */
function declaredBy(name: string, module: DestinationModule): unknown[] {
  if (module.destinations !== undefined) {
    if (!Array.isArray(module.destinations) || module.destinations.length === 0) {
      throw new UsageError(
        `destinations: the package "${name}" exports "destinations" that is not a list of destinations`,
      );
    }
    return module.destinations;
  }
  const one = module.destination ?? module.default;
  if (one === undefined)
    throw new UsageError(`destinations: the package "${name}" exports no destination (${HOW})`);
  return [one];
}

/**
 * The destinations of the packages named, each checked with `defineDestination`, in the order
 * named; a {@link UsageError} (exit 2) naming the package for one that is not installed, cannot
 * be loaded, exports no destination or a malformed one.
 */
export async function loadDestinationPackages(
  names: ReadonlyArray<string>,
  cwd: string,
): Promise<Array<{ name: string; destination: AnyDestination }>> {
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`destinations: "${twice}" is named twice`);
  const { defineDestination } = await import('@orgreport/deliver');
  const loaded: Array<{ name: string; destination: AnyDestination }> = [];
  for (const name of names) {
    const path = resolvePackage(name, cwd);
    let module: DestinationModule;
    try {
      module = (await import(pathToFileURL(path).href)) as DestinationModule;
    } catch (error) {
      throw new UsageError(
        `destinations: the package "${name}" could not be loaded: ${(error as Error).message?.split('\n')[0]}`,
        { cause: error },
      );
    }
    for (const declared of declaredBy(name, module)) {
      try {
        loaded.push({ name, destination: defineDestination(declared as AnyDestination) });
      } catch (error) {
        throw new UsageError(`destinations: the package "${name}": ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
  }
  return loaded;
}

/**
 * The built-in destinations and those of the packages named: a scheme taken twice (by a built-in
 * destination or another package) is a {@link UsageError} naming the package that came second.
 */
export async function destinationsWith(packages: DestinationPackages | undefined): Promise<Destinations> {
  const { createDestinations } = await import('@orgreport/deliver');
  const destinations = createDestinations();
  if (!packages?.names || packages.names.length === 0) return destinations;
  for (const { name, destination } of await loadDestinationPackages(packages.names, packages.cwd)) {
    try {
      destinations.add(destination);
    } catch (error) {
      throw new UsageError(
        `destinations: the package "${name}": ${(error as Error).message} (known: ${destinations
          .list()
          .map((d) => d.scheme)
          .join(', ')})`,
        { cause: error },
      );
    }
  }
  return destinations;
}
