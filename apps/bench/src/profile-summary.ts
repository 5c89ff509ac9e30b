/**
 * Summarizes a V8 `.cpuprofile` (from `pnpm bench --profile`): self time per function and per
 * file, so the hot spots of a stage can be named. Run:
 * `node --import tsx src/profile-summary.ts <file.cpuprofile> [top] [function]` (with a function
 * name, only the time spent inside calls of it, e.g. `buildReportModel`).
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time in ms per key (function or file) of a profile; with `under`, only the samples that
 * have a caller of that function name (the time spent inside it).
 */
export function selfTimes(
  profile: CpuProfile,
  keyOf: (node: ProfileNode) => string,
  under?: string,
): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inside = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (byId.get(at)?.callFrame.functionName === under) return true;
    }
    return false;
  };
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || (under && !inside(id))) return;
    const key = keyOf(node);
    out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}

function shortUrl(url: string): string {
  return (
    url.replace(/^file:\/\/.*?\/(packages|apps|node_modules)\//, '$1/').replace(/^node:/, 'node:') ||
    '(native)'
  );
}

function top(map: Map<string, number>, n: number): string {
  const total = [...map.values()].reduce((a, b) => a + b, 0);
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, ms]) => `${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Piped into `head`: a closed pipe just ends the output.
  process.stdout.on('error', () => {});
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  const n = Number(process.argv[3] ?? 25);
  const under = process.argv[4];
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const fn = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  process.stdout.write(`# self time by function\n${top(selfTimes(profile, fn, under), n)}\n\n`);
  process.stdout.write(
    `# self time by file\n${top(
      selfTimes(profile, (node) => shortUrl(node.callFrame.url), under),
      n,
    )}\n`,
  );
}
