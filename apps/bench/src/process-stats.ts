/** Small process-level helpers shared by the child processes and the benches that spawn them. */
import { readFileSync } from 'node:fs';
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

/** The peak resident memory of another process so far, from /proc (kB), or 0 where there is none. */
export function peakRssKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * The pages another process has taken from the system so far (its minor page faults, from
 * /proc/PID/stat), as MB of 4 KiB pages; 0 where there is none. Each is memory written for the first
 * time, which on some virtual machines costs far more than writing it again (docs/performance.md).
 */
export function freshPagesMb(pid: number): number {
  try {
    // The fields after the command's name, which may hold spaces and parentheses: it ends at the
    // line's last ')'. minflt is the 10th field of the line, the 8th after the name.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[7]) * 4096) / 1e6 || 0;
  } catch {
    return 0;
  }
}
