/**
 * Measures the emulator at scale (not a test): start-up of a 100k-user emulator, a month of
 * `/users` pages, and the first and later daily-total computations.
 * Run: `npx tsx scripts/measure-scale.ts [users]` from packages/emulator.
 */
import { startEmulator } from '../src/index.ts';

const users = Number(process.argv[2] ?? 100_000);
const t0 = performance.now();
const emu = await startEmulator({ users, today: '2026-11-22', seed: 1 });
const startMs = performance.now() - t0;
const headers = { authorization: `Bearer ${emu.keys.owner}` };
const month = 'startDate=2026-10-01&endDate=2026-10-31';

const t1 = performance.now();
let pages = 0;
let rows = 0;
let cursor: string | null = null;
const maxPages = Number(process.argv[3] ?? 50);
do {
  const res = await fetch(
    `${emu.baseUrl}/api/v1/analytics/users?${month}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    {
      headers,
    },
  );
  const body = (await res.json()) as {
    data: unknown[];
    meta: { has_more: boolean; next_cursor: string | null };
  };
  rows += body.data.length;
  pages++;
  cursor = body.meta.has_more ? body.meta.next_cursor : null;
} while (cursor && pages < maxPages);
const pagesMs = performance.now() - t1;

const t2 = performance.now();
await fetch(`${emu.baseUrl}/api/v1/analytics/activity?startDate=2026-10-01&endDate=2026-10-01`, { headers });
const firstDayMs = performance.now() - t2;
const t3 = performance.now();
await fetch(`${emu.baseUrl}/api/v1/analytics/tools?startDate=2026-10-02&endDate=2026-10-08`, { headers });
const weekMs = performance.now() - t3;
await emu.close();
console.log(
  JSON.stringify(
    {
      users,
      startMs: Math.round(startMs),
      usersPages: pages,
      usersRows: rows,
      usersPagesMs: Math.round(pagesMs),
      msPerPage: Math.round(pagesMs / pages),
      firstDayActivityMs: Math.round(firstDayMs),
      nextSevenDaysToolsMs: Math.round(weekMs),
      heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
    },
    null,
    2,
  ),
);
