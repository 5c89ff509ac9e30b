/**
 * The monthly report against a server we did not write (foreign-server.ts: plain node:http, not the
 * emulator), misbehaving one way at a time. The `orgreport` bin runs as its own process, so its exit
 * code, what it prints and its peak memory are the user's; a previous report sits in the output
 * folder and must come out byte for byte intact whenever the run fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, tempDir } from '../helpers.ts';
import { markdownTableRows } from './bad-input-cases.ts';
import {
  type ForeignServer,
  type Misbehaviour,
  startForeignServer,
  TEXT_BEARER,
  TEXT_TOKEN,
} from './foreign-server.ts';
import { decodeEntities, fileText, listFiles, treeHashes, workbookCells } from './harness.ts';

/**
 * What each misbehaviour does now, as docs/bad-input.md's "Bad input from the server" table shows it (checked
 * below): every row is a case of this file, run against the foreign server.
 */
export const SERVER_ROWS: Array<[behaviour: string, outcome: string, exit: string]> = [
  [
    '`/users` answers empty pages with `has_more: true` and a fresh cursor',
    'stops after 3 empty pages in a row: `analytics.users: pagination stopped: 3 empty pages in a row`',
    '1',
  ],
  [
    'readiness pages never get shorter than `limit`, with new report ids',
    'stops at the list bound (`--max-list-items`, default 100,000 reports): `readiness.list: pagination stopped: the list grew past`',
    '1',
  ],
  [
    'readiness pages capped below the requested `limit`',
    'reads on until an empty page: every report is in',
    '0',
  ],
  [
    'a body that trickles one byte per second',
    'stops when less than 1 KiB arrives within the idle limit (`--idle-timeout`, default 10 s; tried twice): `the body stalled`',
    '1',
  ],
  [
    'a body that announces 2 GB and then idles',
    'refused from its announced size: `it announces 2048 MiB, more than the 64 MiB limit`',
    '1',
  ],
  ['a 2 GB body', 'stops reading at the size limit, counted while it streams: `grew past 64 MiB`', '1'],
  [
    'a gzip bomb (`Content-Encoding: gzip`)',
    'stops at the same limit, counted after decompression: `grew past 64 MiB (decompressed`',
    '1',
  ],
  [
    'a setting nested 100,000 deep in the control history',
    '`controls.history refused the response ...: its JSON nests deeper than 64 levels`',
    '1',
  ],
  [
    'negative and fractional counts in `/users` rows',
    'the negative row is excluded, the fractional one kept; both listed under data quality with their row counts',
    '0',
  ],
  [
    '`/users` rows dated outside the requested days or in the future',
    'excluded; listed under data quality with their row counts',
    '0',
  ],
  [
    'the key echoed inside data (an e-mail, a URL) and in a credit-limit error',
    'masked in every file written and every line printed (`ops+[redacted]@example.com`)',
    '0 (1 for `limits apply`: a limit was refused)',
  ],
  [
    '`restrictApiKeyCreationToManagers` true -> false',
    'shown with its before and after, first among the security-relevant changes',
    '0',
  ],
  [
    '`sk-...` and `Bearer ...` inside a guidance setting, a hook command, a readiness rationale',
    'masked in place (`call the router with [redacted]`) in the HTML, JSON, XLSX, PDF and snapshot',
    '0',
  ],
  [
    'overlapping `/users` pages (duplicate user-day rows)',
    'one row per user and day, the first kept; the repeats counted under data quality, never summed',
    '0',
  ],
  [
    'a redirect to another host',
    'refused: `the server redirected to ..., which is not a configured host` (followed, logged and stated under data quality when `--allow-redirect-to` names it)',
    '1',
  ],
  ['`/users` paged with `meta.hasMore` / `meta.nextCursor`', 'followed: every user is in', '0'],
  [
    'a full `/users` page with neither paging spelling',
    '`analytics.users: pagination stopped: a full page came without a continuation ...`',
    '1',
  ],
  [
    'a base URL that is not the API (404 and a web page to every request)',
    "`... returned 404 ... Check the base URL: this list always exists on the service's API ...`",
    '1',
  ],
];

const bin = fileURLToPath(new URL('../../apps/report-cli/bin/orgreport.js', import.meta.url));
// Made at run time: nothing key-shaped is in the repository.
const KEY = `foreign-test-key-${randomBytes(8).toString('hex')}`;
const MONTH = ['--month', '2026-10', '--today', '2026-11-22'];

interface Run {
  code: number | null;
  out: string;
  err: string;
  /** Peak resident memory of the process, MiB (VmHWM, sampled every 50 ms). */
  peakMiB: number;
  seconds: number;
}

/** Runs the bin against `server`, sampling its peak memory until it exits. */
function orgreport(argv: string[], env: Record<string, string>): Promise<Run> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [bin, ...argv], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let peakKiB = 0;
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const sample = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const hwm = Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0);
      peakKiB = Math.max(peakKiB, hwm);
    } catch {
      // exited between two samples
    }
  }, 50);
  const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearInterval(sample);
      clearTimeout(guard);
      resolve({ code, out, err, peakMiB: peakKiB / 1024, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const servers: ForeignServer[] = [];
async function server(misbehaviour: Misbehaviour, more: { users?: number; elsewhere?: string } = {}) {
  const s = await startForeignServer({ misbehaviour, key: KEY, ...more });
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** The environment of a run against `s`: the key, and short limits so that each case ends in seconds. */
function envOf(s: ForeignServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ORGREPORT_BASE_URL: s.url,
    ORGREPORT_APP_URL: s.url,
    ORGREPORT_API_KEY: KEY,
    ORGREPORT_MAX_RETRIES: '0',
    ORGREPORT_IDLE_TIMEOUT: '2',
    ORGREPORT_HEADERS_TIMEOUT: '3',
    ...extra,
  };
}

/** Every output file's text (snapshot files gunzipped, workbook cells, PDF text) joined, to scan for secrets. */
function everythingWritten(dir: string): string {
  return listFiles(dir)
    .map((f) => {
      const path = join(dir, f);
      if (f.endsWith('.xlsx')) return JSON.stringify(workbookCells(path));
      if (f.endsWith('.pdf')) return pdfText(path);
      if (f.endsWith('.html')) return decodeEntities(fileText(path));
      return fileText(path);
    })
    .join('\n');
}

/** The report model a run wrote. */
function model(dir: string): {
  figures: Array<{ id: string; value: number | null }>;
  dataQuality: Array<{ kind: string; message: string; count?: number }>;
  controls: { security: Array<{ path: string; before: string | null; after: string | null }> };
  users: Array<{ user_id: string; active_days: number; tool_calls: number; sessions: number }>;
} {
  const file = listFiles(dir).find((f) => /^orgreport-.*\.json$/.test(f));
  if (!file) throw new Error(`no report JSON in ${dir}: ${listFiles(dir).join(', ')}`);
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
}

function figure(m: ReturnType<typeof model>, id: string): number | null | undefined {
  return m.figures.find((f) => f.id === id)?.value;
}

let previous: string;
beforeAll(async () => {
  // A good month first: its report is the "previous report" every failing case must leave intact.
  const good = await server('none');
  previous = tempDir('orgreport-foreign-previous-');
  const run = await orgreport(
    ['monthly', ...MONTH, '--out', previous, '--formats', 'json,html'],
    envOf(good),
  );
  expect(run.code, run.err).toBe(0);
}, 120_000);

/** An output folder holding a copy of the previous report. */
function folderWithPreviousReport(): string {
  const dir = tempDir('orgreport-foreign-case-');
  cpSync(previous, dir, { recursive: true });
  return dir;
}

it("the manual's Bad input from the server section holds exactly these rows", () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'bad-input.md'), 'utf8');
  const section = page.split(/^## /m).find((part) => part.startsWith('Bad input from the server\n'));
  expect(section, 'docs/bad-input.md has a "## Bad input from the server" section').toBeDefined();
  expect(markdownTableRows(section ?? '')).toEqual(SERVER_ROWS);
});

describe('a misbehaving server: the run stops with exit 1, names the endpoint, keeps the previous report', () => {
  const cases: Array<{
    misbehaviour: Misbehaviour;
    message: RegExp;
    users?: number;
    env?: Record<string, string>;
  }> = [
    {
      misbehaviour: 'users-empty-pages-forever',
      message: /analytics\.users: pagination stopped: 3 empty pages in a row/,
    },
    {
      misbehaviour: 'readiness-endless',
      message: /readiness\.list: pagination stopped: the list grew past 500 items/,
      env: { ORGREPORT_MAX_LIST_ITEMS: '500' },
    },
    { misbehaviour: 'tokens-trickle', message: /analytics\.tokens failed: .*the body stalled/ },
    {
      misbehaviour: 'tools-announces-2gb-then-idles',
      message: /analytics\.tools refused the response .*it announces 2048 MiB, more than the 64 MiB limit/,
    },
    { misbehaviour: 'tools-2gb-body', message: /analytics\.tools refused the response .*grew past 64 MiB/ },
    {
      misbehaviour: 'activity-gzip-bomb',
      message: /analytics\.activity refused the response .*grew past 64 MiB \(decompressed/,
    },
    {
      misbehaviour: 'controls-deep-json',
      message: /controls\.history refused the response .*nests deeper than 64 levels/,
    },
    {
      misbehaviour: 'users-no-continuation',
      message: /analytics\.users: pagination stopped: a full page came without a continuation/,
      users: 150,
    },
    {
      misbehaviour: 'not-the-api',
      message: /returned 404 .*Check the base URL: this list always exists on the service's API/,
    },
  ];

  for (const c of cases) {
    it(`${c.misbehaviour}`, async () => {
      const s = await server(c.misbehaviour, { users: c.users });
      const dir = folderWithPreviousReport();
      const before = treeHashes(dir);
      const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s, c.env));
      expect(run.code, run.err).toBe(1);
      const last = run.err.trim().split('\n').at(-1) ?? '';
      expect(last).toMatch(/^orgreport: /);
      expect(last).toMatch(c.message);
      expect(treeHashes(dir)).toEqual(before);
      expect(run.peakMiB).toBeLessThan(1024);
      expect(run.seconds).toBeLessThan(60);
      expect(run.out + run.err).not.toContain(KEY);
    }, 120_000);
  }

  it('a redirect to another host is refused, naming the host and the setting that would allow it', async () => {
    const other = await server('none');
    const s = await server('activity-redirect-elsewhere', { elsewhere: other.url });
    const dir = folderWithPreviousReport();
    const before = treeHashes(dir);
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s));
    expect(run.code, run.err).toBe(1);
    expect(run.err).toContain(
      `orgreport: analytics.activity refused the response of GET ${s.url}/api/v1/analytics/activity`,
    );
    expect(run.err).toContain(`the server redirected to ${other.url}, which is not a configured host`);
    expect(run.err).toContain(`--allow-redirect-to ${other.url}`);
    expect(other.requests()).toBe(0);
    expect(treeHashes(dir)).toEqual(before);
  }, 120_000);

  it('a redirect to a host the setting allows is followed, said in the log and in the report', async () => {
    const other = await server('none');
    const s = await server('activity-redirect-elsewhere', { elsewhere: other.url });
    const dir = tempDir('orgreport-foreign-allowed-');
    const run = await orgreport(
      ['monthly', ...MONTH, '--out', dir, '--formats', 'json'],
      envOf(s, { ORGREPORT_ALLOW_REDIRECT_TO: other.url }),
    );
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain(`requests were redirected to ${other.url}`);
    const finding = model(dir).dataQuality.find((f) => f.kind === 'redirected');
    expect(finding?.message).toContain(other.url);
  }, 120_000);
});

describe('odd but valid data: exit 0, resolved by one rule and stated under data quality', () => {
  it('negative and fractional counts: the negative row is excluded, the fractional one kept and flagged', async () => {
    const s = await server('users-bad-counts');
    const dir = tempDir('orgreport-foreign-counts-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s));
    expect(run.code, run.err).toBe(0);
    const m = model(dir);
    const negative = m.dataQuality.find((f) => f.kind === 'rows_negative');
    const fractional = m.dataQuality.find((f) => f.kind === 'rows_fractional');
    expect(negative).toMatchObject({ count: 1 });
    expect(negative?.message).toContain('excluded from every figure');
    expect(fractional).toMatchObject({ count: 1 });
    expect(fractional?.message).toContain('kept and counted as sent');
    // The excluded row (user 0 on October 5) counts nowhere: 30 active days, 30 x 20 calls.
    expect(m.users.find((u) => u.user_id === 'user-0000')).toMatchObject({
      active_days: 30,
      tool_calls: 600,
    });
    expect(m.users.find((u) => u.user_id === 'user-0001')).toMatchObject({ active_days: 31, sessions: 62.5 });
  }, 120_000);

  it('rows dated outside the requested days or in the future are excluded and counted', async () => {
    const s = await server('users-bad-dates');
    const dir = tempDir('orgreport-foreign-dates-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s));
    expect(run.code, run.err).toBe(0);
    const m = model(dir);
    expect(m.dataQuality.find((f) => f.kind === 'rows_outside_range')).toMatchObject({ count: 1 });
    expect(m.dataQuality.find((f) => f.kind === 'rows_future')).toMatchObject({ count: 1 });
    expect(figure(m, 'credits')).toBe(3 * 31 * 1500);
  }, 120_000);

  it('overlapping pages: one row per user and day, the repeats counted, never summed', async () => {
    const s = await server('users-duplicates', { users: 150 });
    const dir = tempDir('orgreport-foreign-dups-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s));
    expect(run.code, run.err).toBe(0);
    const m = model(dir);
    // Pages of 100 users: the second page repeats user 99's 61 days.
    expect(m.dataQuality.find((f) => f.kind === 'rows_duplicate')).toMatchObject({ count: 61 });
    expect(figure(m, 'active_users')).toBe(150);
    expect(figure(m, 'credits')).toBe(150 * 31 * 1500);
  }, 120_000);

  it('/users paged with meta.hasMore / meta.nextCursor (the published spelling): every user is in', async () => {
    const s = await server('users-camel-case-paging', { users: 250 });
    const dir = tempDir('orgreport-foreign-camel-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s));
    expect(run.code, run.err).toBe(0);
    expect(figure(model(dir), 'active_users')).toBe(250);
  }, 120_000);

  it('readiness pages capped below the limit: every report is read (3 repositories, not 1)', async () => {
    const s = await server('readiness-capped-pages');
    const dir = tempDir('orgreport-foreign-capped-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json'], envOf(s));
    expect(run.code, run.err).toBe(0);
    expect(figure(model(dir), 'readiness_repos')).toBe(3);
  }, 120_000);
});

describe('secrets: the key is never written or printed; secrets are known by what they are', () => {
  it('a server echoing the key inside data and in a credit-limit error: no file or line holds it', async () => {
    const s = await server('echo-key');
    const dir = tempDir('orgreport-foreign-echo-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--verbose'], envOf(s));
    expect(run.code, run.err).toBe(0);
    expect(listFiles(dir).filter((f) => /\.(pdf|xlsx|html|json)$/.test(f)).length).toBeGreaterThanOrEqual(4);
    const written = everythingWritten(dir);
    expect(written).toContain('ops+[redacted]@example.com');
    expect(written).not.toContain(KEY);
    expect(run.out + run.err).not.toContain(KEY);

    const limits = join(tempDir(), 'limits.csv');
    writeFileSync(limits, 'email,limit\nuser-0000@example.com,100\nuser-0001@example.com,200\n');
    const apply = await orgreport(['limits', 'apply', limits], envOf(s));
    expect(apply.code, apply.err).toBe(1);
    expect(apply.out + apply.err).toContain('key [redacted] may not set limits');
    expect(apply.out + apply.err).not.toContain(KEY);
  }, 180_000);

  it('restrictApiKeyCreationToManagers true -> false is shown with before and after, as a security change', async () => {
    const s = await server('api-key-policy-change');
    const dir = tempDir('orgreport-foreign-policy-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir, '--formats', 'json,html'], envOf(s));
    expect(run.code, run.err).toBe(0);
    expect(model(dir).controls.security).toEqual([
      expect.objectContaining({ path: 'restrictApiKeyCreationToManagers', before: 'true', after: 'false' }),
    ]);
    const html = decodeEntities(fileText(join(dir, listFiles(dir).find((f) => f.endsWith('.html'))!)));
    expect(html).toContain('Security-relevant changes');
    expect(html).toMatch(
      /restrict<wbr>Api<wbr>Key<wbr>Creation<wbr>To<wbr>Managers<\/td><td class="wrap code value">true<\/td><td class="wrap code value">false/,
    );
  }, 120_000);

  it('token-shaped secrets inside free text are masked in place in every output', async () => {
    const s = await server('tokens-in-text');
    const dir = tempDir('orgreport-foreign-text-');
    const run = await orgreport(['monthly', ...MONTH, '--out', dir], envOf(s));
    expect(run.code, run.err).toBe(0);
    const written = everythingWritten(dir);
    expect(written).not.toContain(TEXT_TOKEN);
    expect(written).not.toContain(TEXT_BEARER.split(' ')[1]!);
    expect(written).toContain('call the router with [redacted]');
    expect(written).toContain('curl -H');
  }, 180_000);
});
