/**
 * `pnpm bench --store`: the store's cases, each run as a user runs it (the built `orgreport` binary
 * in its own process) against the emulator in another:
 * (the built `dist/main.js`, as an installed package runs it)
 * - `monthly` with the comparison month already stored: its requests and bytes against a fresh run;
 * - `monthly --store` of a month the store holds: end to end (PDF, XLSX, HTML, JSON), the median of three runs;
 * - the same by the README's command, `pnpm exec orgreport monthly --store ...` from the workspace
 *   root (pnpm's start and the bin's choice of the build included), the median of three runs;
 * - the workbook stage alone: `writeWorkbook` of that month's model, the median of three runs, each
 *   in a fresh process;
 * - the size of one month of the store;
 * - `sync` of one new day;
 * - `query` of a 12-month sum per user: the run's yardstick (see scaling.ts).
 * With 10,000 and 100,000 users, the README's command and the workbook stage again, the two sizes
 * alternated (see {@link alternatedRatios}): issue 34's ratios, taken pair by pair.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkChild } from './children.ts';
import { median, round } from './numbers.ts';
import { freshPagesMb, peakRssKb } from './process-stats.ts';
import { type BenchCalendar, type WorkbookDone, YARDSTICK_SQL } from './protocol.ts';

// The built CLI, as an installed package runs it (the workspace's bin would compile the sources first).
const CLI = fileURLToPath(new URL('../../report-cli/dist/main.js', import.meta.url));
/** The workspace's root, where the README's `pnpm exec orgreport` runs. */
const WORKSPACE = fileURLToPath(new URL('../../..', import.meta.url));

/** How the CLI is started: its build by `node` (as an installed package), or the README's `pnpm exec orgreport`. */
type Launch = 'node' | 'pnpm exec';

/** Which store case a figure measures, the same at every size (what scaling.ts compares). */
export type StoreCaseId =
  | 'stored-requests'
  | 'stored-bytes'
  | 'monthly-cli'
  | 'monthly-readme'
  | 'monthly-peak-rss'
  | 'monthly-fresh-memory'
  | 'workbook'
  | 'store-size'
  | 'sync-day'
  | 'yardstick';

/**
 * One measured figure of a store case, with the target it is held to. A time target set in seconds
 * (`limitSeconds`) is judged against the run's yardstick at the end (scaling.ts), not here.
 */
export interface StoreFigure {
  users: number;
  id: StoreCaseId | `${StoreCaseId}-ratio` | `${StoreCaseId}-pairs`;
  case: string;
  value: number;
  unit: string;
  target?: string;
  ok?: boolean;
  limitSeconds?: number;
}

interface Emulator {
  baseUrl: string;
  apiKey: string;
  stats(): Promise<{ requests: number; bytes: number }>;
  stop(): Promise<void>;
}

async function emulator(users: number, today: string, seed: number): Promise<Emulator> {
  const child = forkChild('./emulator-child.ts', { users, latencyMs: 0, today, seed, month: '' }, [
    '--max-old-space-size=8192',
  ]);
  const ready = await child.next('emulator-ready');
  return {
    baseUrl: ready.baseUrl,
    apiKey: ready.apiKey,
    async stats() {
      const next = new Promise<{ requests: number; bytes: number }>((resolve) =>
        child.onMessage((m) => {
          if (m.kind === 'emulator-stats') resolve(m);
        }),
      );
      child.process.send('stats');
      return next;
    },
    async stop() {
      child.process.send('stop');
      await child.next('emulator-done').catch(() => undefined);
      await child.exited;
    },
  };
}

/**
 * Runs the CLI with `args` against `api` at `today`; its wall time, its peak RSS (the CLI's own
 * process: 0 under `pnpm exec`, whose process is pnpm's), and what the emulator served meanwhile.
 * `launch` 'pnpm exec' runs the README's command from the workspace's root (which has no config
 * file either).
 */
async function orgreport(
  api: Emulator,
  today: string,
  args: string[],
  cwd: string,
  launch: Launch = 'node',
): Promise<{
  seconds: number;
  peakMb: number;
  freshMb: number;
  requests: number;
  bytes: number;
  stdout: string;
}> {
  const before = await api.stats();
  const started = performance.now();
  const argv = [...args, '--today', today, '--quiet'];
  const [command, commandArgs] =
    launch === 'node' ? [process.execPath, [CLI, ...argv]] : ['pnpm', ['exec', 'orgreport', ...argv]];
  let peakKb = 0;
  let freshMb = 0;
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = spawn(command, commandArgs, {
        // No config file of the machine: a working folder and home without one.
        cwd: launch === 'node' ? cwd : WORKSPACE,
        env: {
          PATH: process.env.PATH,
          HOME: cwd,
          ORGREPORT_BASE_URL: api.baseUrl,
          ORGREPORT_API_KEY: api.apiKey,
        },
      });
      const sample =
        launch === 'node'
          ? setInterval(() => {
              peakKb = Math.max(peakKb, peakRssKb(child.pid!));
              freshMb = Math.max(freshMb, freshPagesMb(child.pid!));
            }, 100)
          : undefined;
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('close', (c) => {
        clearInterval(sample);
        resolve({ code: c, stdout: out, stderr: err });
      });
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`orgreport ${args.join(' ')} exited ${code}: ${stderr.trim()}`);
  const after = await api.stats();
  return {
    seconds,
    peakMb: (peakKb * 1024) / 1e6,
    freshMb,
    requests: after.requests - before.requests,
    bytes: after.bytes - before.bytes,
    stdout,
  };
}

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

/** Bytes of one month's partitions, every dataset. */
function monthBytes(store: string, month: string): number {
  let total = 0;
  for (const dataset of readdirSync(store).filter((d) => !d.startsWith('_'))) {
    for (const org of readdirSync(join(store, dataset))) {
      const dir = join(store, dataset, org, `month=${month}`);
      if (existsSync(dir)) total += bytesUnder(dir);
    }
  }
  return total;
}

/** Runs of the end-to-end case; its figure is their median. */
const END_TO_END_RUNS = 3;
const MiB = 2 ** 20;

/** The day after `day`. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * One organization size's store cases, measured, with its emulator and store kept until `close`,
 * so that another size's runs can alternate with this one's (see {@link alternatedRatios}).
 */
export interface StoreSession {
  users: number;
  figures: StoreFigure[];
  /** One run of the README's command of the month held (all four formats), into `out`. */
  readme(out: string): Promise<{ seconds: number }>;
  /** The workbook stage alone once, in a fresh process, into `out`. */
  workbook(out: string): Promise<WorkbookDone>;
  /** Stops the emulator and removes the store. */
  close(): Promise<void>;
}

/** Every store case at one organization size (10k or fewer: also the fresh-run comparison and the 12-month query). */
export async function storeCases(
  users: number,
  calendar: BenchCalendar,
  log: (line: string) => void,
): Promise<StoreSession> {
  if (!existsSync(CLI)) throw new Error('pnpm bench --store runs the built CLI: run pnpm build first');
  const { month, today, seed } = calendar;
  const figures: StoreFigure[] = [];
  const add = (f: Omit<StoreFigure, 'users'>) => {
    figures.push({ users, ...f });
    const verdict =
      f.limitSeconds !== undefined
        ? ` (target ${f.limitSeconds} s at the reference speed: judged against the yardstick at the end)`
        : f.target
          ? ` (target ${f.target}: ${f.ok ? 'met' : 'MISSED'})`
          : '';
    log(`  ${users} users, ${f.case}: ${f.value} ${f.unit}${verdict}`);
  };
  const work = mkdtempSync(join(tmpdir(), `orgreport-store-bench-${users}-`));
  const store = join(work, 'store');
  const run = (api: Emulator, day: string, args: string[], launch: Launch = 'node') =>
    orgreport(api, day, args, work, launch);
  const api = await emulator(users, today, seed);
  /** Stops the emulator and removes the store: when the session closes, or at once on a failure. */
  const close = async () => {
    await api.stop();
    rmSync(work, { recursive: true, force: true });
  };
  /** `monthly --store` of the bench's month in `formats`, into the folder `out` of the work folder. */
  const monthlyFromStore = (formats: string, out: string, launch: Launch = 'node') =>
    run(
      api,
      today,
      ['monthly', '--store', store, '--month', month, '--formats', formats, '--out', join(work, out)],
      launch,
    );
  const [y, m] = month.split('-').map(Number) as [number, number];
  const previous = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
  const previousEnd = new Date(Date.UTC(y, m - 1, 0)).toISOString().slice(0, 10);
  try {
    if (users <= 10_000) {
      // Today's run: both months fetched afresh. Then the comparison month stored by a sync.
      const fresh = await run(api, today, [
        'monthly',
        '--month',
        month,
        '--formats',
        'json',
        '--out',
        join(work, 'fresh'),
      ]);
      await run(api, today, ['sync', '--store', store, '--since', `${previous}-01`, '--until', previousEnd]);
      const stored = await monthlyFromStore('json', 'stored');
      const requests = stored.requests / fresh.requests;
      const bytes = stored.bytes / fresh.bytes;
      add({
        id: 'stored-requests',
        case: `monthly, ${previous} stored: requests (${stored.requests} of ${fresh.requests})`,
        value: round(requests * 100, 1),
        unit: '% of a fresh run',
        target: '<= 55 %',
        ok: requests <= 0.55,
      });
      add({
        id: 'stored-bytes',
        case: `monthly, ${previous} stored: bytes (${round(stored.bytes / MiB, 1)} of ${round(fresh.bytes / MiB, 1)} MiB)`,
        value: round(bytes * 100, 1),
        unit: '% of a fresh run',
        target: '<= 55 %',
        ok: bytes <= 0.55,
      });
    } else {
      await run(api, today, ['sync', '--store', store, '--since', `${previous}-01`]);
    }
    // The store holds both months: the report reads them, nothing is fetched but which organization.
    // Run several times: on two shared cores one run moves by several tenths of a second, so the
    // figure is the median, with every run's time beside it. Then the same by the README's command.
    for (const launch of ['node', 'pnpm exec'] as const) {
      const runs: Array<{ seconds: number; peakMb: number; freshMb: number; requests: number }> = [];
      for (let i = 0; i < END_TO_END_RUNS; i++) {
        runs.push(
          await monthlyFromStore('pdf,xlsx,html,json', `report-${launch.replace(' ', '-')}-${i + 1}`, launch),
        );
      }
      const seconds = median(runs.map((r) => r.seconds));
      const limit = launch === 'pnpm exec' ? 3 : users <= 10_000 ? 5 : 30;
      const targeted = launch === 'pnpm exec' ? users === 10_000 : users === 10_000 || users === 100_000;
      add({
        id: launch === 'node' ? 'monthly-cli' : 'monthly-readme',
        case: `${launch === 'node' ? 'monthly --store' : 'pnpm exec orgreport monthly --store'}, month held (PDF, XLSX, HTML, JSON; ${runs[0]!.requests} request(s); median of ${runs.length} runs: ${runs.map((r) => round(r.seconds, 1)).join(', ')} s)`,
        value: round(seconds, 1),
        unit: 's',
        ...(targeted ? { limitSeconds: limit } : {}),
      });
      if (launch === 'node') {
        const peak = median(runs.map((r) => r.peakMb));
        add({
          id: 'monthly-peak-rss',
          case: `monthly --store, month held: peak RSS of the CLI's process (median of ${runs.length} runs: ${runs.map((r) => Math.round(r.peakMb)).join(', ')} MB)`,
          value: Math.round(peak),
          unit: 'MB',
          ...(users === 100_000 ? { target: '<= 1000 MB (issue 34)', ok: peak <= 1000 } : {}),
        });
        // Sampled every 100 ms, so the last moments of a run are not in it.
        add({
          id: 'monthly-fresh-memory',
          case: `monthly --store, month held: memory the CLI's process wrote for the first time (its minor page faults, 4 KiB each, to its last sample; median of ${runs.length} runs: ${runs.map((r) => Math.round(r.freshMb)).join(', ')} MB)`,
          value: Math.round(median(runs.map((r) => r.freshMb))),
          unit: 'MB',
        });
      }
    }
    // The workbook stage alone, from the model the first run wrote as JSON.
    const json = readdirSync(join(work, 'report-node-1')).find((f) => f.endsWith('.json'));
    if (!json) throw new Error('monthly --store wrote no JSON model');
    const model = join(work, 'report-node-1', json);
    const books: WorkbookDone[] = [];
    for (let i = 0; i < END_TO_END_RUNS; i++)
      books.push(await workbookOnce(model, join(work, `workbook-${i + 1}.xlsx`)));
    add({
      id: 'workbook',
      case: `workbook stage: writeWorkbook of the month's model (${books[0]!.users} user rows, ${round(books[0]!.bytes / MiB, 1)} MiB; median of ${books.length} fresh processes: ${books.map((b) => round(b.wallMs / 1000, 2)).join(', ')} s; CPU median ${round(median(books.map((b) => b.cpuMs)) / 1000, 2)} s)`,
      value: round(median(books.map((b) => b.wallMs)) / 1000, 2),
      unit: 's',
    });

    const size = monthBytes(store, month);
    add({
      id: 'store-size',
      case: `store size of ${month}`,
      value: round(size / 1e6, 1),
      unit: 'MB',
      ...(users === 10_000 ? { target: '<= 10 MB', ok: size <= 10e6 } : {}),
    });

    // One new day: the same organization a day later.
    await run(api, today, ['sync', '--store', store, '--since', `${previous}-01`]);
    const tomorrow = nextDay(today);
    const later = await emulator(users, tomorrow, seed);
    try {
      const day = await run(later, tomorrow, ['sync', '--store', store, '--since', `${previous}-01`]);
      add({
        id: 'sync-day',
        case: `sync of one new day (${day.requests} requests, ${round(day.bytes / MiB, 1)} MiB)`,
        value: round(day.seconds, 1),
        unit: 's',
        ...(users === 100_000 ? { limitSeconds: 15 } : {}),
      });
    } finally {
      await later.stop();
    }

    if (users <= 10_000) {
      // Twelve months (the store from the first day of data on), then a year's sum per user.
      await run(api, today, ['sync', '--store', store]);
      const query = await run(api, today, [
        'query',
        '--store',
        store,
        '--format',
        'csv',
        '--max-rows',
        '1000000',
        YARDSTICK_SQL,
      ]);
      const rows = query.stdout.trim().split('\n').length - 1;
      add({
        id: 'yardstick',
        case: `query: 12-month sum per user, the run's yardstick (${rows} users; the process, start included)`,
        value: round(query.seconds, 2),
        unit: 's',
      });
    }
    return {
      users,
      figures,
      readme: (out) => monthlyFromStore('pdf,xlsx,html,json', out, 'pnpm exec'),
      workbook: (out) => workbookOnce(model, join(work, out)),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `writeWorkbook` of the report model in `model` (JSON), in a fresh process, into `out`. */
async function workbookOnce(model: string, out: string): Promise<WorkbookDone> {
  const child = forkChild('./workbook-child.ts', { model, out });
  const done = await child.next('workbook-done');
  await child.exited;
  return done;
}

/** Pairs of the alternated measurements: as many as the end-to-end runs. */
const PAIRS = END_TO_END_RUNS;

/**
 * Issue 34's ratios taken pair by pair: the README's command and the workbook stage of `small`
 * (10k) and `large` (100k) in turn, small then large, {@link PAIRS} times. Each pair is measured
 * within a minute, so a machine that slows down or speeds up between the sizes' own runs (here
 * minutes apart) moves both sides of a pair alike; the figure is the median of the pairs' ratios.
 */
export async function alternatedRatios(
  small: StoreSession,
  large: StoreSession,
  log: (line: string) => void,
): Promise<StoreFigure[]> {
  const figures: StoreFigure[] = [];
  const pairs = async (
    id: StoreCaseId,
    label: string,
    once: (s: StoreSession, i: number) => Promise<number>,
  ) => {
    const measured: Array<[number, number]> = [];
    for (let i = 0; i < PAIRS; i++) measured.push([await once(small, i), await once(large, i)]);
    const ratios = measured.map(([a, b]) => b / a);
    const figure: StoreFigure = {
      users: large.users,
      id: `${id}-pairs`,
      case: `${label}: ${large.users.toLocaleString('en-US')} users against ${small.users.toLocaleString('en-US')}, alternated pair by pair (${measured.map(([a, b]) => `${round(b, 2)} s / ${round(a, 2)} s`).join(', ')}; the median of the pairs' ratios, ${ratios.map((r) => round(r)).join(', ')})`,
      value: round(median(ratios)),
      unit: 'x',
    };
    figures.push(figure);
    log(`  ${figure.case}: ${figure.value} x`);
  };
  await pairs(
    'monthly-readme',
    "the README's command (pnpm exec orgreport monthly --store)",
    async (s, i) => (await s.readme(`pair-readme-${i + 1}`)).seconds,
  );
  await pairs(
    'workbook',
    'the workbook stage',
    async (s, i) => (await s.workbook(`pair-workbook-${i + 1}.xlsx`)).wallMs / 1000,
  );
  return figures;
}
