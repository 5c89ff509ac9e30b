#!/usr/bin/env node
// Inside the workspace the CLI runs straight from its TypeScript sources (tsx, plus the
// `@orgreport/source` export condition so sibling packages resolve to src/ too);
// an installed package runs its build in dist/.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register: registerTypeScript } = await import('tsx/esm/api');
  registerTypeScript();
  register('./source-condition.js', import.meta.url);
  await import(source.href);
} else {
  await import('../dist/main.js');
}
