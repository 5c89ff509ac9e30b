/**
 * A full garbage collection on demand, for the pipeline's `releaseMemory` (see its RunContext): the
 * CLI owns its process, so it may tell V8 when a stage's intermediates are garbage. Node exposes
 * `gc` only under `--expose-gc`; the flag, set now, gives it to a new context (as Jest's leak
 * detector takes it), without asking users to start Node with a flag.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collects the garbage of the whole heap, the memory of unreachable buffers included. */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
