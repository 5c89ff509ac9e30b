#!/usr/bin/env node
// The built CLI (dist/) when there is one: what users run, and what the set-up builds in a clone.
// A developer runs the TypeScript sources instead (tsx, plus the `@orgreport/source` export
// condition so sibling packages resolve to src/ too) with ORGREPORT_FROM_SOURCE=1, or when nothing
// is built yet.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const built = new URL('../dist/main.js', import.meta.url);
const source = new URL('../src/main.ts', import.meta.url);
const fromSource = existsSync(source) && (process.env.ORGREPORT_FROM_SOURCE === '1' || !existsSync(built));
if (fromSource) {
  const { register: registerTypeScript } = await import('tsx/esm/api');
  registerTypeScript();
  register('./source-condition.js', import.meta.url);
  await import(source.href);
} else {
  await import(built.href);
}
