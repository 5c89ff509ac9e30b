/**
 * Samples the summed memory of a process's descendants (Chromium's browser, GPU and renderer
 * processes) from /proc, since `process.resourceUsage()` counts only the process itself. Each process
 * counts its proportional set size (PSS: shared pages split among the processes sharing them), so
 * the sum is what Chromium really occupies; summed RSS counts its shared libraries once per process.
 * Where smaps_rollup cannot be read the RSS is used; on systems without /proc the peak stays 0.
 */
import { readdir, readFile } from 'node:fs/promises';

/** Parent pid and PSS (or else RSS) in kB of every process, from /proc. */
async function processTable(): Promise<Map<number, { ppid: number; rssKb: number }>> {
  const table = new Map<number, { ppid: number; rssKb: number }>();
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return table;
  }
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        try {
          const status = await readFile(`/proc/${e}/status`, 'utf8');
          const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
          const rollup = await readFile(`/proc/${e}/smaps_rollup`, 'utf8').catch(() => '');
          const pss = /^Pss:\s+(\d+)/m.exec(rollup)?.[1];
          const rssKb = Number(pss ?? /^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
          table.set(Number(e), { ppid, rssKb });
        } catch {
          // The process ended while we looked.
        }
      }),
  );
  return table;
}

/** Summed memory in kB of the descendants of `root` in a process table. */
export function descendantsRssKb(
  table: ReadonlyMap<number, { ppid: number; rssKb: number }>,
  root: number,
): number {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += table.get(pid)?.rssKb ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Starts sampling every `intervalMs`; `stop()` resolves to the peak in MB (and may be called twice). */
export function descendantsPeakRssMb(root: number, intervalMs: number): { stop(): Promise<number> } {
  let peakKb = 0;
  let sampling: Promise<void> = Promise.resolve();
  const sample = () => {
    sampling = processTable().then((t) => {
      peakKb = Math.max(peakKb, descendantsRssKb(t, root));
    });
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      return peakKb / 1024;
    },
  };
}
