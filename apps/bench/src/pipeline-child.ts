/**
 * Child process: runs the monthly report once, stage by stage, against a running emulator and sends
 * one {@link StageResult} per stage (wall, CPU, requests, bytes, rows, peak RSS of this process).
 * The stages are the CLI's own functions in the CLI's order (fetch, snapshot, compute, HTML, PDF, XLSX),
 * with the CLI's warm-up: the renderer loads and Chromium starts during the fetch.
 * argv[2]: JSON `{ baseUrl, apiKey, month, today, outDir, concurrency, skip? }`.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { comparisonPeriod, monthPeriod, OrgClient, type Snapshot } from '@orgreport/api-core';
import { buildReportModel, type ReportModel } from '@orgreport/metrics';
import { warmUpRendering } from '@orgreport/render/warmup';
import { fetchSnapshot, writeSnapshot } from '@orgreport/snapshot';
import { descendantsPeakRssMb } from './descendants-rss.ts';
import { cpuMsOf, maxRssMb, send } from './process-stats.ts';
import type { StageName, StageResult } from './protocol.ts';
import { RequestRecorder } from './request-recorder.ts';

interface PipelineSpec {
  baseUrl: string;
  apiKey: string;
  month: string;
  today: string;
  outDir: string;
  /** The client's limit of requests in flight. */
  concurrency: number;
  /** Stages to skip (e.g. `pdf` on a machine without Chromium). */
  skip?: StageName[];
}

const spec = JSON.parse(process.argv[2] ?? '{}') as PipelineSpec;
// A failing stage ends the case: tell the parent why (first line only, no stack).
process.on('uncaughtException', (error) => {
  send({ kind: 'error', message: String(error?.message ?? error).split('\n')[0]! });
  process.exitCode = 1;
  process.disconnect?.();
});
const skip = new Set(spec.skip ?? []);
const now = () => new Date(`${spec.today}T06:00:00Z`);

type Measured = Pick<StageResult, 'requests' | 'bytes' | 'rows'> & { extra?: Partial<StageResult> };

/** Runs one stage and sends its figures; returns what the stage produced. */
async function stage<T>(name: StageName, run: () => Promise<{ value: T; measured: Measured }>): Promise<T> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { value, measured } = await run();
  const wallMs = performance.now() - started;
  const result: StageResult = {
    stage: name,
    wallMs,
    cpuMs: cpuMsOf(process.cpuUsage(cpu)),
    requests: measured.requests,
    bytes: measured.bytes,
    rows: measured.rows,
    maxRssMb: maxRssMb(),
    ...measured.extra,
  };
  send({ kind: 'stage', result });
  return value;
}

function skipped(name: StageName, reason: string): void {
  send({
    kind: 'stage',
    result: {
      stage: name,
      wallMs: 0,
      cpuMs: 0,
      requests: 0,
      bytes: 0,
      rows: 0,
      maxRssMb: maxRssMb(),
      skipped: reason,
    },
  });
}

async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}

// `orgreport monthly` loads the renderer and starts Chromium while it fetches the month. Here both
// are made ready before the fetch and waited for, so that each stage's figures are its own (on two
// cores, Chromium starting next to a stage slows that stage) and the fetch compares with the fetch
// floor: their time counts as start-up, and the CLI's end to end is at most the bench's.
const warmup = warmUpRendering(
  new Set(['html', ...(['pdf', 'xlsx'] as const).filter((f) => !skip.has(f))] as const),
);
await warmup.modules();
if (!skip.has('pdf')) await warmup.pdf();

const recorder = new RequestRecorder();
const client = new OrgClient({
  apiKey: spec.apiKey,
  baseUrl: spec.baseUrl,
  appUrl: spec.baseUrl,
  now,
  concurrency: spec.concurrency,
  onRequest: (event) => recorder.started(event.url, event.operation),
  onResponse: (event) => recorder.finished(event.operation, event.url, event.bytes, event.durationMs),
});

const snapshot: Snapshot = await stage('fetch', async () => {
  const period = monthPeriod(spec.month, { now });
  const value = await fetchSnapshot(client, {
    period,
    comparison: comparisonPeriod(period),
    now,
    toolVersion: 'bench',
    salt: 'bench',
  });
  const stats = client.stats;
  return {
    value,
    measured: { requests: stats.requests, bytes: stats.bytesReceived, rows: value.userDays.user_id.length },
  };
});

const snapshotDir = join(spec.outDir, 'snapshot');
await stage('snapshot', async () => {
  const manifest = await writeSnapshot(snapshotDir, snapshot);
  const files = [...Object.keys(manifest.checksums), 'manifest.json'];
  const sizes = await Promise.all(files.map((f) => fileSize(join(snapshotDir, f))));
  return {
    value: manifest,
    measured: {
      requests: 0,
      bytes: sizes.reduce((a, b) => a + b, 0),
      rows: snapshot.userDays.user_id.length,
    },
  };
});

const model: ReportModel = await stage('compute', async () => {
  const value = buildReportModel(snapshot, { generatedAt: now().toISOString() });
  return { value, measured: { requests: 0, bytes: 0, rows: value.users.length } };
});

const render = await import('@orgreport/render'); // loaded by the warm-up
const html = await stage('html', async () => {
  const value = await render.renderHtml(model);
  return { value, measured: { requests: 0, bytes: Buffer.byteLength(value), rows: model.users.length } };
});

if (skip.has('pdf')) skipped('pdf', 'skipped by --skip');
else {
  await stage('pdf', async () => {
    // Chromium runs in processes of its own: sample their memory while the stage runs.
    const sampler = descendantsPeakRssMb(process.pid, 250);
    const pdf = await warmup.pdf();
    try {
      const title = render.reportTitle(model);
      const bytes = await pdf.render(html, {
        title,
        author: 'orgreport',
        headerText: model.organization.name,
        footerText: render.periodLabel(model),
      });
      const file = join(spec.outDir, 'report.pdf');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(file, bytes);
      return {
        value: undefined,
        measured: {
          requests: 0,
          bytes: bytes.byteLength,
          rows: model.users.length,
          extra: { childPeakRssMb: await sampler.stop() },
        },
      };
    } finally {
      await warmup.close();
      await sampler.stop();
    }
  });
}

if (skip.has('xlsx')) skipped('xlsx', 'skipped by --skip');
else {
  await stage('xlsx', async () => {
    const file = join(spec.outDir, 'report.xlsx');
    await render.writeWorkbook(model, file);
    return {
      value: undefined,
      measured: { requests: 0, bytes: await fileSize(file), rows: model.users.length },
    };
  });
}

const urlsFile = join(spec.outDir, 'requests.jsonl');
await recorder.save(urlsFile);
send({
  kind: 'pipeline-done',
  snapshotDir,
  urlsFile,
  maxInFlight: recorder.maxInFlight,
  maxOverlappingOperations: recorder.maxOverlappingOperations,
  byPath: recorder.totalsByPath(),
  userDayRows: snapshot.userDays.user_id.length,
  usersWithRows: new Set(snapshot.userDays.user_id).size,
});
process.disconnect?.();
