import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './memory.ts';

describe('collectGarbage', () => {
  it('collects what nothing refers to any more at once, without Node started with --expose-gc', async () => {
    expect(process.execArgv).not.toContain('--expose-gc');
    const dropped = new WeakRef(Array.from({ length: 100_000 }, (_, i) => ({ i })));
    const kept = Array.from({ length: 10 }, (_, i) => ({ i }));
    const keptRef = new WeakRef(kept);
    // A weak reference holds its target until the end of the turn that made or read it.
    await nextTurn();
    collectGarbage();
    expect(dropped.deref()).toBeUndefined();
    expect(keptRef.deref()).toBe(kept);
    collectGarbage(); // and again: the function is kept, the flag set once
  });
});
