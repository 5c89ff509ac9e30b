/**
 * All-or-nothing output: every file or directory of a run is first written under a hidden temporary
 * name in the output directory and renamed into place only when the whole run succeeded. A failed
 * run removes its temporaries, so it leaves nothing that looks complete and never replaces an
 * existing report.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface CommittedOutput {
  path: string;
  bytes: number;
}

interface Pending {
  temp: string;
  final: string;
  directory: boolean;
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await sizeOf(join(path, entry));
  return total;
}

/** A set of outputs in one directory that appear together at {@link OutputSet.commit} or not at all. */
export class OutputSet {
  private readonly pending: Pending[] = [];
  private readonly tag = randomBytes(4).toString('hex');

  constructor(readonly dir: string) {}

  /** Creates the output directory. */
  async open(): Promise<this> {
    await mkdir(this.dir, { recursive: true });
    return this;
  }

  private reserve(name: string, directory: boolean): string {
    const temp = join(this.dir, `.${name}.partial-${this.tag}`);
    this.pending.push({ temp, final: join(this.dir, name), directory });
    return temp;
  }

  /** A temporary path to write the file `name` to. */
  file(name: string): string {
    return this.reserve(name, false);
  }

  /** A temporary directory (created) to fill in place of the directory `name`. */
  async directory(name: string): Promise<string> {
    const temp = this.reserve(name, true);
    await mkdir(temp, { recursive: true });
    return temp;
  }

  /** Renames every temporary into place (replacing older outputs of the same name) and returns them with sizes. */
  async commit(): Promise<CommittedOutput[]> {
    const done: CommittedOutput[] = [];
    for (const p of this.pending) {
      if (p.directory) {
        // A directory cannot be renamed over a non-empty one: move the old one aside first.
        const old = `${p.final}.old-${this.tag}`;
        const existed = await stat(p.final).then(
          () => true,
          () => false,
        );
        if (existed) await rename(p.final, old);
        await rename(p.temp, p.final);
        if (existed) await rm(old, { recursive: true, force: true });
      } else {
        await rename(p.temp, p.final);
      }
      done.push({ path: p.final, bytes: await sizeOf(p.final) });
    }
    this.pending.length = 0;
    return done;
  }

  /** Removes every temporary; existing outputs stay as they were. */
  async abort(): Promise<void> {
    await Promise.all(this.pending.map((p) => rm(p.temp, { recursive: true, force: true })));
    this.pending.length = 0;
  }
}
