/**
 * Start-up cost of `orgreport hook record`: an agent runs it after every turn, so the modules it
 * loads statically (dynamic `import()` is lazy) must not pull in the API client and its schemas.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)';/gm;

/** The source file a bare workspace specifier resolves to through the `@orgreport/source` condition. */
function workspaceSource(specifier: string): string | undefined {
  const match = /^(@orgreport\/[^/]+)(\/.*)?$/.exec(specifier);
  if (!match) return undefined;
  const manifest = require.resolve(`${match[1]}/package.json`);
  const exports = JSON.parse(readFileSync(manifest, 'utf8')).exports as Record<
    string,
    { '@orgreport/source'?: string }
  >;
  const entry = exports[`.${match[2] ?? ''}`]?.['@orgreport/source'];
  if (!entry) throw new Error(`${specifier} is not exported`);
  return join(dirname(manifest), entry);
}

/** Every file (and external package) loaded by static imports from `entry`. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!));
      else if (specifier!.startsWith('@orgreport/')) visit(workspaceSource(specifier!)!);
      else if (!specifier!.startsWith('node:') && !specifier!.endsWith('.json')) packages.add(specifier!);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('hook record start-up', () => {
  const src = import.meta.dirname;
  const graph = staticGraph(join(src, 'main.ts'));
  const command = staticGraph(join(src, 'commands', 'hook', 'hook.ts'));
  for (const file of command.files) graph.files.add(file);
  for (const name of command.packages) graph.packages.add(name);
  const apiCore = dirname(workspaceSource('@orgreport/api-core')!);

  it('loads api-core through its small subpaths: no client, resources or API schemas', () => {
    const loaded = [...graph.files]
      .filter((f) => f.startsWith(apiCore))
      .map((f) => f.slice(apiCore.length + 1));
    expect(loaded).toContain('hook-events.ts'); // the graph does reach api-core
    for (const heavy of ['index.ts', 'client.ts', 'schemas.ts', 'transport.ts', 'snapshot.ts']) {
      expect(loaded, heavy).not.toContain(heavy);
    }
  });

  it('loads no renderer, emulator or metrics code', () => {
    // The one file of metrics it may load is its defaults' (the settings' stated defaults), which imports nothing.
    const defaults = [...graph.files].filter((f) => f.endsWith('packages/metrics/src/defaults.ts'));
    for (const f of defaults) expect(readFileSync(f, 'utf8')).not.toMatch(/^import /m);
    const files = [...graph.files].filter((f) => !defaults.includes(f)).join('\n');
    expect(files).not.toMatch(/packages\/(render|emulator|metrics)\//);
    expect([...graph.packages].sort()).toEqual(['commander', 'zod']);
  });
});
