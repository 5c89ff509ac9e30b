/** Small process-level helpers shared by the child processes. */
import type { ChildMessage } from './protocol.ts';

/** Peak resident set size of this process so far, in MB (`maxRSS` is in KiB). */
export function maxRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** User + system CPU of a `process.cpuUsage()` reading (or difference), in ms. */
export function cpuMsOf(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** Sends a message to the parent process (no-op when not forked). */
export function send(message: ChildMessage): void {
  process.send?.(message);
}
