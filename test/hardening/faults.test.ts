/**
 * Faults: with the emulator injecting latency, 500, 503, 429 with Retry-After, dropped connections
 * and truncated bodies at a seeded 10 % of requests, the monthly report (JSON model and workbook
 * cell values) is identical to a fault-free run, over ten fault seeds. When every request fails,
 * the run stops within its retry budget with a message naming the endpoint and exit code 1,
 * writes no output that looks complete, and leaves a previous report in the folder untouched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_KINDS, type FaultKind, type RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from '../helpers.ts';
import { type CellInfo, comparable, listFiles, treeHashes, workbookCells } from './harness.ts';

const ORG = { seed: 11, users: 24, repos: 2 };
const ORG_NAME = 'Fault Org';
const BASE = 'orgreport-fault-org-2026-10';
const FAULT_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** Seeds whose workbook is also written and compared cell by cell (rendering is the slow part). */
const WORKBOOK_SEEDS = new Set([1, 2, 3]);

interface RunResult {
  code: number;
  err: string;
  model: unknown;
  cells: CellInfo[] | undefined;
  faults: FaultKind[];
  elapsedMs: number;
}

async function monthly(emulator: RunningEmulator, formats: string, out = tempDir(), extra: string[] = []) {
  const started = Date.now();
  const result = await cli(
    ['monthly', '--out', out, '--org-name', ORG_NAME, '--formats', formats, ...extra],
    {
      env: envFor(emulator),
    },
  );
  return { ...result, out, elapsedMs: Date.now() - started };
}

async function reportOf(emulator: RunningEmulator, withWorkbook: boolean): Promise<RunResult> {
  const run = await monthly(emulator, withWorkbook ? 'json,xlsx' : 'json');
  const model =
    run.code === 0
      ? comparable(JSON.parse(readFileSync(join(run.out, `${BASE}.json`), 'utf8')), emulator.baseUrl)
      : undefined;
  const cells =
    run.code === 0 && withWorkbook
      ? comparable(workbookCells(join(run.out, `${BASE}.xlsx`)), emulator.baseUrl)
      : undefined;
  const faults = emulator.requestLog.flatMap((r) => (r.fault ? [r.fault] : []));
  return { code: run.code, err: run.err, model, cells, faults, elapsedMs: run.elapsedMs };
}

let baseline: RunResult;
const faulty = new Map<number, RunResult>();

beforeAll(async () => {
  const clean = await smallOrg(ORG);
  try {
    baseline = await reportOf(clean, true);
  } finally {
    await clean.close();
  }
  // Runs spend most of their time waiting out retries, so a few run side by side.
  const runSeed = async (seed: number) => {
    const emulator = await smallOrg({
      ...ORG,
      latency: { min: 0, max: 25 },
      faults: { rate: 0.1, seed, retryAfterSeconds: 1 },
    });
    try {
      faulty.set(seed, await reportOf(emulator, WORKBOOK_SEEDS.has(seed)));
    } finally {
      await emulator.close();
    }
  };
  for (let i = 0; i < FAULT_SEEDS.length; i += 5) await Promise.all(FAULT_SEEDS.slice(i, i + 5).map(runSeed));
}, 240_000);

describe('faults at a seeded 10 %', () => {
  it('the fault-free baseline succeeds', () => {
    expect(baseline.code, baseline.err).toBe(0);
    expect(baseline.faults).toEqual([]);
    expect(baseline.cells?.length).toBeGreaterThan(100);
  });

  it.each(FAULT_SEEDS)('fault seed %i: the report model equals the fault-free one', (seed) => {
    const run = faulty.get(seed);
    expect(run?.code, run?.err).toBe(0);
    expect(run?.model).toEqual(baseline.model);
  });

  it('the workbook cell values equal the fault-free ones', () => {
    for (const seed of WORKBOOK_SEEDS) {
      const run = faulty.get(seed);
      expect(run?.cells, `seed ${seed}`).toBeDefined();
      expect(run?.cells, `seed ${seed}`).toEqual(baseline.cells);
    }
  });

  it('every fault kind was actually injected across the seeds', () => {
    const seen = new Set([...faulty.values()].flatMap((r) => r.faults));
    expect([...seen].sort()).toEqual([...FAULT_KINDS].sort());
  });
});

describe('faults on every request', () => {
  let failing: RunningEmulator;
  beforeAll(async () => {
    failing = await smallOrg({ ...ORG, faults: { rate: 1, retryAfterSeconds: 1 } });
  });
  afterAll(() => failing?.close());

  it('stops within the retry budget with exit code 1 and a message naming the endpoint; writes nothing', async () => {
    const run = await monthly(failing, 'json,xlsx,html');
    expect(run.code).toBe(1);
    // The last line is the error; it names the operation and the endpoint's path.
    const message = run.err.trim().split('\n').at(-1) ?? '';
    expect(message).toMatch(
      /^orgreport: [a-zA-Z]+\.[a-zA-Z]+ failed: .*(GET|PUT) http:\/\/127\.0\.0\.1:\d+\/api\//,
    );
    // The client's budget: four retries after at most 0.5 + 1 + 2 + 4 s (Retry-After here is 1 s).
    const budgetMs = 500 + 1000 + 2000 + 4000;
    expect(run.elapsedMs).toBeLessThan(budgetMs + 4000);
    expect(
      failing.requestLog.filter((r) => r.path === failing.requestLog[0]?.path).length,
    ).toBeLessThanOrEqual(5);
    const written = listFiles(run.out);
    expect(written.filter((f) => /\.(json|xlsx|html|pdf)$/.test(f) && !f.startsWith('snapshot'))).toEqual([]);
    expect(existsSync(join(run.out, 'snapshot', 'manifest.json'))).toBe(false);
  });

  it('leaves a previous report and snapshot in the folder byte for byte intact', async () => {
    const previous = tempDir();
    const good = await smallOrg(ORG);
    try {
      const first = await monthly(good, 'json,xlsx', previous);
      expect(first.code, first.err).toBe(0);
    } finally {
      await good.close();
    }
    const before = treeHashes(previous);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([`${BASE}.json`, `${BASE}.xlsx`, 'snapshot/manifest.json']),
    );
    // No retries (--max-retries 0): the run fails fast and no request of it is repeated.
    const seen = failing.requestLog.length;
    const run = await monthly(failing, 'json,xlsx', previous, ['--max-retries', '0']);
    expect(run.code).toBe(1);
    expect(treeHashes(previous)).toEqual(before);
    const urls = failing.requestLog
      .slice(seen)
      .map((r) => `${r.method} ${r.path}?${JSON.stringify(r.query)}`);
    expect(urls.length).toBeGreaterThan(0);
    expect(new Set(urls).size).toBe(urls.length);
  });
});
