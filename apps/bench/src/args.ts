/**
 * The command line of `pnpm bench`: which cases to run (every size at every latency by default,
 * or one case with `--users N --latency MS`) and the calendar of the data.
 */
import { parseArgs } from 'node:util';
import type { BenchCalendar, BenchCase, StageName } from './protocol.ts';
import { STAGES } from './protocol.ts';

export const DEFAULT_USERS = [1_000, 10_000, 100_000];
export const DEFAULT_LATENCIES_MS = [0, 80];
/** Sizes of the store's cases (their targets are set at 10k and 100k users). */
export const DEFAULT_STORE_USERS = [10_000, 100_000];

export interface BenchArgs extends BenchCalendar {
  cases: BenchCase[];
  /** Directory for snapshots, reports and recorded requests (one subdirectory per case). */
  outDir: string;
  /** Stages not to run (e.g. `pdf`). */
  skip: StageName[];
  /** Skip the reference figures (floors). */
  noFloor: boolean;
  /** The client's limit of requests in flight (the CLI's default is 4), used by the fetch floor as well. */
  concurrency: number;
  /** Write V8 CPU profiles of the pipeline and emulator processes into `<out>/<case>/profiles`. */
  profile: boolean;
  /** Write the results as JSON to this file as well as printing the table. */
  json: string | undefined;
  /** Run the store's cases (default sizes 10k and 100k) instead of the pipeline's. */
  store: boolean;
  /** Run the distribution's case (default size 10k) instead of the pipeline's. */
  distribute: boolean;
}

/** A list of whole numbers from repeated flags and comma lists: `--users 1000,10000`. */
function numbers(values: string[] | undefined, flag: string, min: number): number[] | undefined {
  if (!values || values.length === 0) return undefined;
  return values
    .flatMap((v) => v.split(','))
    .map((v) => {
      const n = Number(v.trim().replace(/_/g, '').replace(/k$/i, '000'));
      if (!Number.isInteger(n) || n < min)
        throw new Error(`${flag}: expected whole numbers >= ${min}, got "${v}"`);
      return n;
    });
}

/** Parses the flags (without `node` and the script path). */
export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      users: { type: 'string', multiple: true },
      latency: { type: 'string', multiple: true },
      month: { type: 'string', default: '2026-10' },
      today: { type: 'string', default: '2026-11-22' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: '.bench-out' },
      skip: { type: 'string', multiple: true },
      'no-floor': { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '4' },
      json: { type: 'string' },
      profile: { type: 'boolean', default: false },
      store: { type: 'boolean', default: false },
      distribute: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!/^\d{4}-\d{2}$/.test(values.month!))
    throw new Error(`--month: expected YYYY-MM, got "${values.month}"`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.today!))
    throw new Error(`--today: expected YYYY-MM-DD, got "${values.today}"`);
  const users =
    numbers(values.users, '--users', 1) ??
    (values.store ? DEFAULT_STORE_USERS : values.distribute ? [10_000] : DEFAULT_USERS);
  const latencies = numbers(values.latency, '--latency', 0) ?? DEFAULT_LATENCIES_MS;
  const skip = (values.skip ?? []).flatMap((s) => s.split(','));
  for (const s of skip) {
    if (!(STAGES as readonly string[]).includes(s))
      throw new Error(`--skip: unknown stage "${s}" (${STAGES.join(', ')})`);
  }
  const [seed] = numbers([values.seed!], '--seed', 0)!;
  const [concurrency] = numbers([values.concurrency!], '--concurrency', 1)!;
  return {
    cases: latencies.flatMap((latencyMs) => users.map((u) => ({ users: u, latencyMs }))),
    month: values.month!,
    today: values.today!,
    seed: seed!,
    outDir: values.out!,
    skip: skip as StageName[],
    noFloor: values['no-floor']!,
    concurrency: concurrency!,
    json: values.json,
    profile: values.profile!,
    store: values.store!,
    distribute: values.distribute!,
  };
}
