/**
 * Times each analytics endpoint alone, one request at a time, against a cold in-process emulator:
 * what serving costs per endpoint (the fetch floor's main part). Not part of `pnpm bench`. Run:
 * `node --conditions=@orgreport/source --import tsx src/emulator-probe.ts [users] [pages]`.
 */
import { startEmulator } from '@orgreport/emulator';

const users = Number(process.argv[2] ?? 10_000);
const maxPages = Number(process.argv[3] ?? 20);
const emulator = await startEmulator({ users, today: '2026-11-22', seed: 1 });
const headers = { authorization: `Bearer ${emulator.keys.owner}` };
const range = 'startDate=2026-09-01&endDate=2026-10-31';

async function timed(label: string, path: string): Promise<void> {
  const started = performance.now();
  const response = await fetch(`${emulator.baseUrl}${path}`, { headers });
  // Bytes only: serving is what is timed, and `/tokens` at 100k users is too long for one string.
  const bytes = (await response.arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  const mib = (bytes / 2 ** 20).toFixed(1);
  process.stdout.write(
    `${label.padEnd(34)} ${response.status} ${Math.round(ms).toString().padStart(7)} ms ${mib.padStart(7)} MiB\n`,
  );
}

/** Walks a cursor chain for up to `maxPages` pages and prints the mean time per page. */
type Body = {
  meta: { has_more: boolean; next_cursor: string | null };
  pagination: { hasMore: boolean; nextCursor: string | null };
};

async function chain(label: string, first: string, nextOf: (body: Body) => string | null): Promise<void> {
  let path: string | null = first;
  let pages = 0;
  const started = performance.now();
  while (path && pages < maxPages) {
    const response = await fetch(`${emulator.baseUrl}${path}`, { headers });
    const cursor = nextOf((await response.json()) as Body);
    pages++;
    path = cursor ? `${first}&cursor=${encodeURIComponent(cursor)}` : null;
  }
  process.stdout.write(
    `${label.padEnd(34)} ${pages} pages, ${Math.round((performance.now() - started) / pages)} ms per page\n`,
  );
}

process.stdout.write(`${users} users, ${range}\n`);
await timed('/tools (computes the day totals)', `/api/v1/analytics/tools?${range}`);
await timed('/tools again (cached totals)', `/api/v1/analytics/tools?${range}`);
await timed('/activity', `/api/v1/analytics/activity?${range}`);
await timed('/productivity', `/api/v1/analytics/productivity?${range}`);
await timed('/tokens', `/api/v1/analytics/tokens?${range}`);
await timed('/tokens?group_by=model', `/api/v1/analytics/tokens?${range}&group_by=model`);
await chain('/users', `/api/v1/analytics/users?${range}&limit=100`, (b) =>
  b.meta.has_more ? b.meta.next_cursor : null,
);
await chain('/organization/users', '/api/v0/organization/users?limit=100', (b) =>
  b.pagination.hasMore ? b.pagination.nextCursor : null,
);
await emulator.close();
