/**
 * Measures the emulator at scale (not a test): start-up, each analytics endpoint over the two
 * months the CLI fetches (2026-09-01..2026-10-31, today 2026-11-22), `/users` pages while a cold
 * `/tokens` is being computed, and the emulator's CPU time and peak RSS (it runs in a child process
 * of its own). Bodies are read as streams (a 100k-user `/tokens` body is longer than the longest
 * string V8 can hold).
 * Run: `npx tsx scripts/measure-scale.ts [users] [pages]` from packages/emulator.
 */
import { fork } from 'node:child_process';
import { startEmulator } from '../src/index.ts';

const users = Number(process.argv[2] ?? 100_000);
const maxPages = Number(process.argv[3] ?? 20);
const range = 'startDate=2026-09-01&endDate=2026-10-31';
const options = { users, today: '2026-11-22', seed: 1 };

// `serve` mode: the emulator alone in a child process, so its peak RSS excludes the client's.
if (process.argv[4] === 'serve') {
  const served = await startEmulator(options);
  process.send?.({ baseUrl: served.baseUrl, key: served.keys.owner });
  process.on('message', async () => {
    await served.close();
    const cpu = process.cpuUsage();
    process.send?.({
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    });
    process.disconnect();
  });
} else {
  await measure();
}

async function measure() {
  const t0 = performance.now();
  const child = fork(process.argv[1] as string, [String(users), String(maxPages), 'serve'], {
    execArgv: process.execArgv,
  });
  const messages: Record<string, unknown>[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (m) => {
    messages.push(m as Record<string, unknown>);
    wake?.();
  });
  const nextMessage = async () => {
    while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return messages.shift() as Record<string, unknown>;
  };
  const emu = (await nextMessage()) as { baseUrl: string; key: string };
  const startMs = performance.now() - t0;
  const headers = { authorization: `Bearer ${emu.key}` };
  const figures: Record<string, unknown> = { users, range, readyMs: Math.round(startMs) };

  /** Fetches a path, reading the body chunk by chunk; returns status, time, bytes and chunk count. */
  async function timed(path: string) {
    const started = performance.now();
    const response = await fetch(`${emu.baseUrl}${path}`, { headers });
    let bytes = 0;
    let chunks = 0;
    let last = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      chunks++;
      last = chunk[chunk.length - 1] ?? last;
    }
    return {
      status: response.status,
      ms: Math.round(performance.now() - started),
      MiB: Number((bytes / 2 ** 20).toFixed(1)),
      chunks,
      endsWithBrace: last === 0x7d,
    };
  }

  /** Walks `/users` pages; returns the mean and the worst time per page. */
  async function usersPages(pages: number) {
    let cursor: string | null = null;
    let n = 0;
    let worst = 0;
    const started = performance.now();
    do {
      const t = performance.now();
      const res = await fetch(
        `${emu.baseUrl}/api/v1/analytics/users?${range}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { headers },
      );
      const body = (await res.json()) as { meta: { has_more: boolean; next_cursor: string | null } };
      worst = Math.max(worst, performance.now() - t);
      n++;
      cursor = body.meta.has_more ? body.meta.next_cursor : null;
    } while (cursor && n < pages);
    return { pages: n, msPerPage: Math.round((performance.now() - started) / n), worstMs: Math.round(worst) };
  }

  // Cold: `/tokens` computes every day while `/users` pages are requested alongside it.
  const tokens = timed(`/api/v1/analytics/tokens?${range}`);
  figures.usersPagesDuringColdTokens = await usersPages(maxPages);
  figures.tokensCold = await tokens;
  figures.toolsCached = await timed(`/api/v1/analytics/tools?${range}`);
  figures.activity = await timed(`/api/v1/analytics/activity?${range}`);
  figures.productivity = await timed(`/api/v1/analytics/productivity?${range}`);
  figures.tokensByModel = await timed(`/api/v1/analytics/tokens?${range}&group_by=model`);
  figures.tokensCached = await timed(`/api/v1/analytics/tokens?${range}`);
  figures.usersPagesCached = await usersPages(maxPages);
  child.send('close');
  const usage = await nextMessage();
  figures.emulatorPeakRssMB = usage.peakRssMB;
  figures.emulatorCpuMs = usage.cpuMs;
  console.log(JSON.stringify(figures, null, 2));
}
