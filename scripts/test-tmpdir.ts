/**
 * One temporary folder for a whole test run, removed after it: the tests' temporary folders and
 * those of the programs they start (Chromium's profiles among them) are made under it, so a run
 * leaves nothing behind in the machine's temporary folder. Set before the workers start, which
 * inherit it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'orgreport-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
