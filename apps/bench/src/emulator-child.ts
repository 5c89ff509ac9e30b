/**
 * Child process: serves one emulated organization until the parent says `stop`, so that the
 * emulator's memory and CPU are never counted in the report pipeline's figures.
 * argv[2]: JSON `{ users, latencyMs, month, today, seed }`.
 */
import { startEmulator } from '@orgreport/emulator';
import { cpuMsOf, maxRssMb, send } from './process-stats.ts';
import type { BenchCalendar, BenchCase, ChildMessage } from './protocol.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as BenchCase & BenchCalendar;
const started = performance.now();
const emulator = await startEmulator({
  seed: spec.seed,
  users: spec.users,
  today: spec.today,
  ...(spec.latencyMs > 0 ? { latency: spec.latencyMs } : {}),
});
send({
  kind: 'emulator-ready',
  baseUrl: emulator.baseUrl,
  apiKey: emulator.keys.owner,
  startMs: performance.now() - started,
} satisfies ChildMessage);

process.on('message', async (message) => {
  if (message === 'stats') {
    const log = emulator.requestLog;
    send({
      kind: 'emulator-stats',
      requests: log.length,
      bytes: log.reduce((sum, entry) => sum + (entry.bytes ?? 0), 0),
    } satisfies ChildMessage);
    return;
  }
  if (message !== 'stop') return;
  await emulator.close();
  send({ kind: 'emulator-done', cpuMs: cpuMsOf(process.cpuUsage()), maxRssMb: maxRssMb() });
  process.disconnect?.();
});
// The parent died: nothing left to serve.
process.on('disconnect', () => {
  void emulator.close();
});
