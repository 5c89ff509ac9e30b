/** Runs one bad-input case through the CLI in its own temporary folder. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { cli, envFor, tempDir } from '../helpers.ts';
import type { BadInputCase } from './bad-input-cases.ts';

/** Runs a case; returns the exit code, the last line on stderr and the whole output. */
export async function runBadInput(c: BadInputCase, emulator: RunningEmulator) {
  const dir = tempDir('orgreport-bad-input-');
  const fill = (text: string) => text.split('$DIR').join(dir);
  for (const [file, content] of Object.entries(c.files ?? {})) {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    if (file.endsWith('/')) mkdirSync(path, { recursive: true });
    else writeFileSync(path, fill(content));
  }
  const env = {
    ...(c.connect ? envFor(emulator) : {}),
    ...Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v)])),
  };
  const result = await cli(c.argv.map(fill), { env, stdin: c.stdin });
  const lines = result.err.trim().split('\n');
  return { code: result.code, last: lines.at(-1) ?? '', err: result.err, out: result.out, dir };
}
