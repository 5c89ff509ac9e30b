/**
 * Which workspace package may depend on which: imports point down the pipeline only (api-core ->
 * snapshot -> store -> metrics -> render -> deliver -> (orchestration) -> apps), and nothing
 * depends on an app. Read from the packages' manifests and their sources, so a new edge (in a
 * package.json, or an import of a package the manifest does not list) fails here until it is
 * placed in {@link ALLOWED}, whose edges must themselves point down {@link LAYER}.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where each package stands in the pipeline: a package may depend only on packages of a lower
 * layer. Beside the pipeline: templates and test-servers (no dependencies of their own),
 * object-store (the bucket client the store and the ledger share), the emulator (the API's
 * server), the watch (rules over the store's records), the examples (other teams' packages).
 */
const LAYER: Record<string, number> = {
  '@orgreport/api-core': 0,
  '@orgreport/templates': 0,
  '@orgreport/test-servers': 0,
  '@orgreport/object-store': 1,
  '@orgreport/snapshot': 1,
  '@orgreport/emulator': 1,
  '@orgreport/store': 2,
  '@orgreport/metrics': 3,
  '@orgreport/watch': 3,
  '@orgreport/render': 4,
  '@orgreport/deliver': 5,
  // Orchestration: producing, distributing, watching and rolling up as package functions.
  '@orgreport/pipeline': 6,
  '@orgreport/cli': 7,
  '@orgreport/bench': 7,
  '@orgreport-example/section-weekday': 7,
  '@orgreport-example/destination-ntfy': 7,
  '@orgreport/e2e': 8,
};

/** The apps: nothing depends on them (the end-to-end tests excepted, as devDependencies). */
const APPS = new Set(['@orgreport/cli', '@orgreport/bench']);

/**
 * The workspace packages each package may list in `dependencies` or `peerDependencies`: what it
 * needs today, nothing more (render does not reach past metrics to the API client).
 */
const ALLOWED: Record<string, readonly string[]> = {
  '@orgreport/api-core': [],
  '@orgreport/templates': [],
  '@orgreport/test-servers': [],
  '@orgreport/object-store': ['@orgreport/api-core'],
  '@orgreport/snapshot': ['@orgreport/api-core'],
  '@orgreport/emulator': ['@orgreport/api-core'],
  '@orgreport/store': ['@orgreport/api-core', '@orgreport/object-store', '@orgreport/snapshot'],
  '@orgreport/metrics': ['@orgreport/api-core'],
  '@orgreport/watch': ['@orgreport/api-core', '@orgreport/store'],
  '@orgreport/render': ['@orgreport/metrics', '@orgreport/templates'],
  '@orgreport/deliver': ['@orgreport/api-core', '@orgreport/object-store'],
  '@orgreport/pipeline': [
    '@orgreport/api-core',
    '@orgreport/deliver',
    '@orgreport/emulator',
    '@orgreport/metrics',
    '@orgreport/object-store',
    '@orgreport/render',
    '@orgreport/snapshot',
    '@orgreport/store',
    '@orgreport/watch',
  ],
  // The command layer: flags, settings, printing over the pipeline (and the emulator it serves, the
  // store it queries, the metrics' and watch's types it prints).
  '@orgreport/cli': [
    '@orgreport/api-core',
    '@orgreport/emulator',
    '@orgreport/metrics',
    '@orgreport/object-store',
    '@orgreport/pipeline',
    '@orgreport/store',
    '@orgreport/watch',
  ],
  '@orgreport/bench': [
    '@orgreport/api-core',
    '@orgreport/emulator',
    '@orgreport/metrics',
    '@orgreport/render',
    '@orgreport/snapshot',
  ],
  '@orgreport-example/section-weekday': ['@orgreport/metrics'],
  '@orgreport-example/destination-ntfy': ['@orgreport/deliver'],
  '@orgreport/e2e': [],
};

/** Libraries with one home: the package that wraps them for everyone else (mail, templates, browser, workbook). */
const LIBRARY_HOME: Record<string, string> = {
  nodemailer: '@orgreport/deliver',
  '@slack/web-api': '@orgreport/deliver',
  handlebars: '@orgreport/render',
  'puppeteer-core': '@orgreport/render',
  exceljs: '@orgreport/render',
};

interface Manifest {
  name: string;
  dir: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  exports?: Record<string, unknown>;
}

/** The workspace's packages, from the globs of pnpm-workspace.yaml (`dir`, `dir/*`, `dir/prefix-*`). */
function workspacePackages(): Manifest[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const list = /^packages:\n((?: {2}- \S+\n)+)/m.exec(yaml)?.[1] ?? '';
  const globs = [...list.matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1]!);
  expect(globs.length).toBeGreaterThan(0);
  const dirs = globs.flatMap((glob) => {
    const star = glob.indexOf('*');
    if (star < 0) return [glob];
    const parent = glob.slice(0, glob.lastIndexOf('/'));
    const prefix = glob.slice(glob.lastIndexOf('/') + 1, star);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.startsWith(prefix))
      .map((e) => `${parent}/${e.name}`);
  });
  return dirs.map((dir) => ({ ...JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')), dir }));
}

const workspaceNames = (deps: Record<string, string> | undefined, names: ReadonlySet<string>) =>
  Object.keys(deps ?? {}).filter((d) => names.has(d));

/** Every rule the manifests break, one line each (none: the workspace keeps them). */
function manifestProblems(packages: readonly Manifest[]): string[] {
  const names = new Set(packages.map((p) => p.name));
  const problems: string[] = [];
  for (const p of packages) {
    if (!(p.name in LAYER) || !(p.name in ALLOWED)) {
      problems.push(`${p.name} (${p.dir}) has no place in LAYER and ALLOWED`);
      continue;
    }
    const runtime = [
      ...workspaceNames(p.dependencies, names),
      ...workspaceNames(p.peerDependencies, names),
      ...workspaceNames(p.optionalDependencies, names),
    ];
    for (const dep of runtime) {
      if (!ALLOWED[p.name]!.includes(dep)) problems.push(`${p.name} may not depend on ${dep}`);
      if (APPS.has(dep)) problems.push(`${p.name} depends on the app ${dep}`);
    }
    for (const dep of workspaceNames(p.devDependencies, names)) {
      if (APPS.has(dep) && p.name !== '@orgreport/e2e') problems.push(`${p.name} depends on the app ${dep}`);
    }
    for (const [library, home] of Object.entries(LIBRARY_HOME)) {
      if (p.name !== home && p.dependencies?.[library] !== undefined) {
        problems.push(`${p.name} depends on ${library}, whose home is ${home}`);
      }
    }
  }
  return problems;
}

/** The source files of a package that ship or run (tests, fixtures and unexported test helpers left out). */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const e of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = `${at}/${e.name}`;
      if (e.isDirectory()) {
        if (!['node_modules', 'dist', '__fixtures__', 'testing'].includes(e.name)) walk(path);
      } else if (/\.(?:ts|js|mjs)$/.test(e.name) && !/\.test(?:-d)?\./.test(e.name)) out.push(path);
    }
  };
  walk(`${dir}/src`);
  return out;
}

/** The workspace packages a file imports (static, dynamic, require). */
function importedPackages(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  return [
    ...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](@orgreport\/[a-z0-9-]+)/g),
  ].map((m) => m[1]!);
}

describe('the workspace dependencies', () => {
  const packages = workspacePackages();

  it('point down the pipeline only, and nothing depends on an app', () => {
    expect(packages.map((p) => p.name)).toContain('@orgreport/render');
    expect(manifestProblems(packages)).toEqual([]);
  });

  it('are refused when a package lists one up the pipeline, an app, or a library of another home', () => {
    const edited = packages.map((p) =>
      p.name === '@orgreport/render'
        ? {
            ...p,
            dependencies: {
              ...p.dependencies,
              '@orgreport/deliver': 'workspace:*',
              '@orgreport/api-core': 'workspace:*',
            },
          }
        : p.name === '@orgreport/metrics'
          ? { ...p, peerDependencies: { '@orgreport/cli': 'workspace:*' } }
          : p.name === '@orgreport/cli'
            ? { ...p, dependencies: { ...p.dependencies, nodemailer: '^7.0.0' } }
            : p,
    );
    expect(manifestProblems(edited).sort()).toEqual([
      '@orgreport/cli depends on nodemailer, whose home is @orgreport/deliver',
      '@orgreport/metrics depends on the app @orgreport/cli',
      '@orgreport/metrics may not depend on @orgreport/cli',
      '@orgreport/render may not depend on @orgreport/api-core',
      '@orgreport/render may not depend on @orgreport/deliver',
    ]);
  });

  it('allow only edges that point to a lower layer', () => {
    const upward = Object.entries(ALLOWED).flatMap(([name, deps]) =>
      deps.filter((d) => !(LAYER[d]! < LAYER[name]!)).map((d) => `${name} -> ${d}`),
    );
    expect(upward).toEqual([]);
  });

  it("are what each package's sources import: nothing undeclared, nothing listed and unused", () => {
    const names = new Set(packages.map((p) => p.name));
    const problems: string[] = [];
    for (const p of packages.filter((q) => /^(?:packages|apps)\//.test(q.dir))) {
      const declared = new Set([
        ...workspaceNames(p.dependencies, names),
        ...workspaceNames(p.peerDependencies, names),
      ]);
      const used = new Set<string>();
      for (const file of sourceFiles(p.dir)) {
        for (const dep of importedPackages(file)) {
          if (dep === p.name) continue;
          used.add(dep);
          if (!declared.has(dep)) problems.push(`${file} imports ${dep}, which ${p.name} does not list`);
        }
      }
      for (const dep of declared)
        if (!used.has(dep)) problems.push(`${p.name} lists ${dep} and imports nothing of it`);
    }
    expect(problems).toEqual([]);
  });
});
