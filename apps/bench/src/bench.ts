/**
 * `pnpm bench`: the monthly report end to end against the emulator for each case (organization size
 * x simulated latency), one child process per emulator and per report pipeline, then the reference
 * figures (fetch floor, DuckDB and a plain loop) on the same data, printed as tables.
 * Usage: `pnpm bench [--users 1000,10000] [--latency 0,80] [--month 2026-10 --today 2026-11-22]
 * [--skip pdf] [--no-floor] [--out dir] [--json file]`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseBenchArgs } from './args.ts';
import { forkChild } from './children.ts';
import type { BenchCalendar, BenchCase } from './protocol.ts';
import { type CaseResult, pathTable, stageTable, summaryTable } from './table.ts';

/** The emulator may hold a very large organization; give it room so it is never the bottleneck. */
const EMULATOR_HEAP = ['--max-old-space-size=8192'];

/** Node flags that write a CPU profile into `dir` when the process exits. */
function profileFlags(dir: string | undefined): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

async function startEmulatorChild(spec: BenchCase & BenchCalendar, profileDir?: string) {
  const child = forkChild('./emulator-child.ts', spec, [...EMULATOR_HEAP, ...profileFlags(profileDir)]);
  const ready = await child.next('emulator-ready');
  return {
    ready,
    async stop() {
      child.process.send('stop');
      const done = await child.next('emulator-done').catch(() => undefined);
      await child.exited;
      return done;
    },
  };
}

async function runCase(spec: BenchCase, args: ReturnType<typeof parseBenchArgs>): Promise<CaseResult> {
  const calendar: BenchCalendar = { month: args.month, today: args.today, seed: args.seed };
  const outDir = resolve(args.outDir, `${spec.users}-users-${spec.latencyMs}ms`);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const result: CaseResult = { ...spec, emulatorStartMs: 0, stages: [], endToEndMs: 0 };
  const log = (text: string) => process.stderr.write(`[${spec.users} users, ${spec.latencyMs} ms] ${text}\n`);

  const profileDir = args.profile ? join(outDir, 'profiles') : undefined;
  const emulator = await startEmulatorChild(
    { ...spec, ...calendar },
    profileDir && join(profileDir, 'emulator'),
  );
  result.emulatorStartMs = emulator.ready.startMs;
  log(`emulator ready in ${Math.round(emulator.ready.startMs)} ms`);
  try {
    const started = performance.now();
    const pipeline = forkChild(
      './pipeline-child.ts',
      {
        baseUrl: emulator.ready.baseUrl,
        apiKey: emulator.ready.apiKey,
        month: args.month,
        today: args.today,
        outDir,
        concurrency: args.concurrency,
        skip: args.skip,
      },
      profileFlags(profileDir && join(profileDir, 'pipeline')),
    );
    pipeline.onMessage((m) => {
      if (m.kind !== 'stage') return;
      result.stages.push(m.result);
      log(
        `${m.result.stage}: ${Math.round(m.result.wallMs)} ms, peak RSS ${Math.round(m.result.maxRssMb)} MB`,
      );
    });
    result.pipeline = await pipeline.next('pipeline-done');
    result.endToEndMs = performance.now() - started;
    await pipeline.exited;
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    const done = await emulator.stop();
    if (done) result.emulator = { cpuMs: done.cpuMs, maxRssMb: done.maxRssMb };
  }
  if (result.error || args.noFloor || !result.pipeline) return result;

  log('reference figures (fresh emulator)');
  const fresh = await startEmulatorChild({ ...spec, ...calendar });
  try {
    const floor = forkChild('./floor-child.ts', {
      baseUrl: fresh.ready.baseUrl,
      apiKey: fresh.ready.apiKey,
      urlsFile: result.pipeline.urlsFile,
      snapshotDir: result.pipeline.snapshotDir,
      concurrency: args.concurrency,
    });
    result.floor = await floor.next('floor');
    await floor.exited;
  } catch (error) {
    result.error = `floor: ${(error as Error).message}`;
  } finally {
    await fresh.stop();
  }
  return result;
}

function machine(): string {
  return `${availableParallelism()} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

const args = parseBenchArgs(process.argv.slice(2));
if (args.distribute) {
  const { distributeCases } = await import('./distribute-bench.ts');
  const figures = [];
  process.stdout.write(
    `### Distribution (${args.month}, today ${args.today}, seed ${args.seed}; ${machine()})\n\n`,
  );
  process.stdout.write('| users | case | figure | target | |\n|---|---|---|---|---|\n');
  for (const users of [...new Set(args.cases.map((c) => c.users))]) {
    figures.push(
      ...(await distributeCases(users, args, args.outDir, (line) => process.stdout.write(`${line}\n`))),
    );
  }
  if (args.json)
    await writeFile(args.json, `${JSON.stringify({ machine: machine(), args, figures }, null, 2)}\n`);
  process.exit(figures.every((f) => f.ok !== false) ? 0 : 1);
}
if (args.store) {
  const { alternatedRatios, storeCases } = await import('./store-bench.ts');
  const figures = [];
  const sizes = [...new Set(args.cases.map((c) => c.users))];
  const log = (line: string) => process.stdout.write(`${line}\n`);
  process.stdout.write(`### Store (${args.month}, today ${args.today}, seed ${args.seed}; ${machine()})\n\n`);
  // Each size's emulator and store are kept until the end, for issue 34's alternated pairs.
  const sessions: Awaited<ReturnType<typeof storeCases>>[] = [];
  try {
    for (const users of sizes) {
      const session = await storeCases(users, args, log);
      sessions.push(session);
      figures.push(...session.figures);
    }
    const small = sessions.find((s) => s.users === 10_000);
    const large = sessions.find((s) => s.users === 100_000);
    if (small && large) figures.push(...(await alternatedRatios(small, large, log)));
  } finally {
    for (const session of sessions) await session.close();
  }
  const { judgeStoreFigures, storeSummaryLines } = await import('./scaling.ts');
  const judged = judgeStoreFigures(figures);
  process.stdout.write(`\n${storeSummaryLines(judged).join('\n')}\n`);
  if (args.json)
    await writeFile(args.json, `${JSON.stringify({ machine: machine(), args, figures: judged }, null, 2)}\n`);
  process.exit(judged.every((f) => f.ok !== false) ? 0 : 1);
}
const results: CaseResult[] = [];
for (const spec of args.cases) {
  const result = await runCase(spec, args);
  results.push(result);
  const title = `${spec.users.toLocaleString('en-US')} users, ${spec.latencyMs} ms latency`;
  const paging = result.pipeline
    ? `${pathTable(result.pipeline.byPath)}\n\nat most ${result.pipeline.maxInFlight} in flight, ${result.pipeline.maxOverlappingOperations} endpoints at once; ${result.pipeline.userDayRows.toLocaleString('en-US')} user-day rows of ${result.pipeline.usersWithRows.toLocaleString('en-US')} users`
    : '';
  process.stdout.write(
    `\n### ${title}\n\n${result.error ? `error: ${result.error}\n\n` : ''}${stageTable(result)}\n\n${paging}\n`,
  );
}
process.stdout.write(
  `\n### Summary (${args.month}, today ${args.today}, seed ${args.seed}; ${machine()})\n\n${summaryTable(results)}\n`,
);
if (args.json)
  await writeFile(args.json, `${JSON.stringify({ machine: machine(), args, results }, null, 2)}\n`);
