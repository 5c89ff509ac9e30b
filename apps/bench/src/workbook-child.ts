/**
 * Child process: the workbook stage alone. Reads a report's JSON model (what `monthly --formats
 * json` wrote), loads the renderer, then writes the workbook with `writeWorkbook` and sends its wall
 * and CPU time. A fresh process per run, as a report's run writes one workbook.
 * argv[2]: JSON `{ model, out }` (paths).
 */
import { readFile, stat } from 'node:fs/promises';
import type { ReportModel } from '@orgreport/metrics';
import { cpuMsOf, send } from './process-stats.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as { model: string; out: string };
process.on('uncaughtException', (error) => {
  send({ kind: 'error', message: String(error?.message ?? error).split('\n')[0]! });
  process.exitCode = 1;
  process.disconnect?.();
});
const model = JSON.parse(await readFile(spec.model, 'utf8')) as ReportModel;
const { writeWorkbook } = await import('@orgreport/render');
const cpu = process.cpuUsage();
const started = performance.now();
await writeWorkbook(model, spec.out);
const wallMs = performance.now() - started;
send({
  kind: 'workbook-done',
  users: model.users.length,
  wallMs,
  cpuMs: cpuMsOf(process.cpuUsage(cpu)),
  bytes: (await stat(spec.out)).size,
});
process.disconnect?.();
