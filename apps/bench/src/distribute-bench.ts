/**
 * `pnpm bench --distribute`: every reader's report of a month from the store, as an operator runs
 * it (`pnpm exec orgreport distribute`, the built CLI): each manager of the emulated organization's
 * directory the PDF of everyone under them (about 400 at 10,000 users) and each cost-center owner
 * their cost center's workbook, delivered to a real SMTP server on loopback. Figures: the run end to
 * end, its peak RSS (the orgreport process), and the cost of one more scope (the run of every scope
 * against a shard of a few); beside each time, the run's yardstick (the store bench's: a year's
 * credits per user, queried from the same store synced a year back), so that runs on machines of
 * different speeds compare.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { forkChild } from './children.ts';
import { round } from './numbers.ts';
import { peakRssKb } from './process-stats.ts';
import { type BenchCalendar, YARDSTICK_SQL } from './protocol.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BUILT = join(ROOT, 'apps/report-cli/dist/main.js');

/** A measured figure of the distribution, with the target it is held to. */
export interface DistributeFigure {
  users: number;
  case: string;
  value: number;
  unit: string;
  target?: string;
  ok?: boolean;
}

/** Targets of the issue: 10,000 users, every manager's PDF and the cost-center workbooks. */
const TARGET_SECONDS = 120;
const TARGET_RSS_MB = 1536;
const TARGET_SCOPE_SECONDS = 0.3;

/** An SMTP server on loopback that takes every message and counts them. */
async function smtpSink(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Runs `pnpm exec orgreport ARGS` (or the built CLI with `direct`); wall time, peak RSS of the orgreport process, output. */
async function orgreport(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ seconds: number; peakMb: number; stdout: string }> {
  const started = performance.now();
  // The orgreport process itself (not pnpm around it), so that its memory can be read.
  const child = spawn(process.execPath, [BUILT, ...args], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: cwd, ...env },
  });
  let peak = 0;
  const sample = setInterval(() => {
    peak = Math.max(peak, peakRssKb(child.pid!));
  }, 100);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  clearInterval(sample);
  if (code !== 0)
    throw new Error(`orgreport ${args.join(' ')} exited ${code}: ${stderr.trim().slice(-2000)}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peak / 1024, stdout };
}

/** The distribution's cases at one organization size. */
export async function distributeCases(
  users: number,
  calendar: BenchCalendar,
  outDir: string,
  log: (line: string) => void,
): Promise<DistributeFigure[]> {
  const { month, today, seed } = calendar;
  const work = resolve(outDir, `distribute-${users}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const figures: DistributeFigure[] = [];
  let yardstick: number | undefined;
  const emulator = forkChild('./emulator-child.ts', { users, latencyMs: 0, today, seed, month }, [
    '--max-old-space-size=8192',
  ]);
  const api = await emulator.next('emulator-ready');
  const smtp = await smtpSink();
  try {
    const env = {
      ORGREPORT_BASE_URL: api.baseUrl,
      ORGREPORT_API_KEY: api.apiKey,
      ORGREPORT_SMTP_URL: smtp.url,
      ORGREPORT_MAIL_FROM: 'reports@bench.test',
      ORGREPORT_PRICE_PER_CREDIT: '0.000004',
      ORGREPORT_PRICE_PER_SEAT: '19',
    };
    const store = join(work, 'store');
    const people = join(work, 'people.csv');
    const since = `${month.slice(0, 5)}${String(Number(month.slice(5)) - 1).padStart(2, '0')}-01`;
    log(`${users} users: sync ${since} to ${today} and the directory`);
    await orgreport(['sync', '--store', store, '--since', since, '--today', today, '-q'], env, work);
    await orgreport(
      ['emulator', '--seed', String(seed), '--users', String(users), '--today', today, '--directory', people],
      env,
      work,
    );
    const plan = join(work, 'plan.json');
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          { each: 'manager', formats: ['pdf'] },
          {
            each: 'cost-center',
            owner: 'cost_center_owner',
            formats: ['xlsx'],
            sections: ['cover', 'chargeback', 'teams', 'definitions'],
          },
        ],
      }),
    );
    const common = [
      'distribute',
      '--store',
      store,
      '--directory',
      people,
      '--plan',
      plan,
      '--month',
      month,
      '--today',
      today,
    ];
    const planned = JSON.parse((await orgreport([...common, '--dry-run', '--json'], env, work)).stdout);
    const deliveries = planned.deliveries.length as number;
    const reports = planned.reports as number;
    log(`${users} users: ${reports} reports, ${deliveries} deliveries; the whole distribution`);
    const before = smtp.count();
    const all = await orgreport([...common, '--out', join(work, 'all'), '-q'], env, work);
    const sent = smtp.count() - before;
    if (sent !== deliveries) throw new Error(`${sent} mails arrived of ${deliveries} deliveries`);
    figures.push({
      users,
      case: `distribute, ${reports} reports (${planned.deliveries.filter((d: { formats: string[] }) => d.formats.includes('pdf')).length} manager PDFs, the cost-center workbooks), ${sent} mails, end to end`,
      value: round(all.seconds, 1),
      unit: 's',
      ...(users === 10_000 && { target: `<= ${TARGET_SECONDS} s`, ok: all.seconds <= TARGET_SECONDS }),
    });
    figures.push({
      users,
      case: 'distribute, peak RSS of the orgreport process',
      value: Math.round(all.peakMb),
      unit: 'MB',
      ...(users === 10_000 && { target: `<= ${TARGET_RSS_MB} MB`, ok: all.peakMb <= TARGET_RSS_MB }),
    });
    // The same run for a few scopes (a shard): what every scope beyond them costs.
    const shards = Math.max(1, Math.floor(deliveries / 10));
    const few = await orgreport(
      [...common, '--out', join(work, 'few'), '--shard', `1/${shards}`, '-q'],
      env,
      work,
    );
    const fewDeliveries = JSON.parse(
      (await orgreport([...common, '--shard', `1/${shards}`, '--dry-run', '--json'], env, work)).stdout,
    ).deliveries.length as number;
    const perScope = (all.seconds - few.seconds) / Math.max(1, deliveries - fewDeliveries);
    figures.push({
      users,
      case: `one more scope ((${round(all.seconds, 1)} s - ${round(few.seconds, 1)} s for ${fewDeliveries}) / ${deliveries - fewDeliveries} more)`,
      value: round(perScope, 3),
      unit: 's',
      ...(users === 10_000 && { target: `< ${TARGET_SCOPE_SECONDS} s`, ok: perScope < TARGET_SCOPE_SECONDS }),
    });
    // The machine's speed in this run: the yardstick, after the distribution so as not to slow it.
    await orgreport(['sync', '--store', store, '--today', today, '-q'], env, work);
    const year = await orgreport(
      ['query', '--store', store, '--format', 'csv', '--max-rows', '1000000', YARDSTICK_SQL],
      env,
      work,
    );
    yardstick = year.seconds;
    figures.push({
      users,
      case: `query: 12-month sum per user, the run's yardstick (${year.stdout.trim().split('\n').length - 1} users; the process, start included)`,
      value: round(year.seconds, 2),
      unit: 's',
    });
  } finally {
    await smtp.close();
    emulator.process.send('stop');
    await emulator.next('emulator-done').catch(() => undefined);
    await emulator.exited;
  }
  // Each time also as yardsticks of this run: the figure to compare with another machine's.
  const inYardsticks = (f: DistributeFigure) =>
    f.unit === 's' && yardstick && !f.case.includes('yardstick')
      ? ` (${round(f.value / yardstick, 2)} yardsticks)`
      : '';
  for (const f of figures) {
    log(
      `| ${f.users.toLocaleString('en-US')} | ${f.case} | ${f.value} ${f.unit}${inYardsticks(f)} | ${f.target ?? ''} | ${f.ok === undefined ? '' : f.ok ? 'met' : 'missed'} |`,
    );
  }
  return figures;
}
