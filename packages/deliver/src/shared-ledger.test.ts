/**
 * The ledger shared by runs on many machines, through `deliverAll`, against S3 with conditional
 * writes (s3rver behind the proxy of @orgreport/test-servers) and against a real Postgres: sent once
 * and skipped by the next run; two runs racing over the same deliveries send each once; a claim
 * whose run is gone is taken over by exactly one of two runs, with the same Message-ID; a claim of
 * a live run is left to it; a write retried after its answer was lost, or after SlowDown, sends
 * nothing twice; a missing bucket, refused credentials, a refused connection or another schema
 * version stop before anything is sent; the requests on S3 are one read per delivery and two
 * writes per sent one, never a listing.
 */
import { startPostgres, type TestPostgres } from '@orgreport/test-servers/postgres';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDestinations,
  type DeliverResult,
  type Delivery,
  defineDestination,
  deliverAll,
  deliveryKey,
  LedgerConfigError,
  LedgerError,
  openSharedLedger,
  type SharedLedger,
} from './index.ts';

let s3: TestS3;
let pg: TestPostgres;
beforeAll(async () => {
  [s3, pg] = await Promise.all([startS3({ buckets: ['ledgers'] }), startPostgres()]);
});
afterAll(async () => {
  await s3?.close();
  await pg?.close();
});

/** What the test's receiver took: Message-IDs in order, each as many times as it came. */
const received: string[] = [];
/** Sends that wait this long before answering (a race's window). */
let sendDelayMs = 0;
const inbox = defineDestination<{ name: string }>({
  scheme: 'inbox',
  title: 'the test receiver',
  syntax: 'inbox:NAME',
  settings: [],
  parse: (target) => ({ name: target.slice('inbox:'.length) }),
  label: ({ name }) => `inbox:${name}`,
  async send(_message, _address, context) {
    if (sendDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, sendDelayMs));
    received.push(context.messageId);
    return { id: context.messageId };
  },
});
const destinations = createDestinations([inbox]);

/** `n` deliveries of the month `month`, to inbox:person-<i>. */
function deliveries(n: number, month: string): Delivery[] {
  return Array.from({ length: n }, (_, i) => {
    const target = `inbox:person-${i}`;
    return {
      key: deliveryKey({ month, recipient: `person-${i}`, scope: 'org', formats: ['pdf'], target }),
      recipient: `person-${i}`,
      target,
      record: { month },
      message: async () => ({
        kind: 'report',
        subject: `report ${month}`,
        text: '',
        html: '',
        summary: '',
        facts: [],
        documents: [],
        meta: { month },
      }),
    };
  });
}

const count = (id: string) => received.filter((r) => r === id).length;
beforeEach(() => {
  received.length = 0;
});

let prefixes = 0;
/** A ledger location of its own for each test, on each backend. */
const backends = {
  s3: () => `s3://ledgers/run-${++prefixes}/`,
  postgres: () => {
    const db = `ledger_${++prefixes}`;
    return { db, url: () => pg.url.replace(/\/postgres$/, `/${db}`) };
  },
};

async function createDatabase(db: string): Promise<void> {
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE ${db}`);
  } finally {
    await sql.end();
  }
}

/** A fresh ledger location on `backend`. */
async function location(backend: 'S3' | 'Postgres'): Promise<string> {
  if (backend === 'S3') return backends.s3();
  const { db, url } = backends.postgres();
  await createDatabase(db);
  return url();
}

const open = (url: string, options: { leaseMs?: number; now?: () => Date } = {}) =>
  openSharedLedger(url, { now: options.now ?? (() => new Date()), settings: s3.env, ...options });

async function run(ledger: SharedLedger, list: Delivery[], unknown: 'resend' | 'skip' = 'resend') {
  try {
    return await deliverAll(list, {
      ledger,
      settings: {},
      destinations,
      unknown,
      messageIdHost: 'acme.test',
    });
  } finally {
    await ledger.close();
  }
}

const keysOf = (result: DeliverResult, what: 'sent' | 'skipped' | 'failed') => result[what].map((r) => r.key);

describe.each(['S3', 'Postgres'] as const)('the shared ledger on %s', (backend) => {
  it('sends each delivery once; the next run, a new process, skips every one', async () => {
    const url = await location(backend);
    const list = deliveries(5, '2026-10');
    const first = await run(await open(url), list);
    expect(first.sent).toHaveLength(5);
    const second = await run(await open(url), list);
    expect(second.sent).toEqual([]);
    expect(second.skipped.map((s) => s.reason)).toEqual(Array(5).fill('sent'));
  });

  it('two runs racing over the same deliveries send each exactly once', async () => {
    const url = await location(backend);
    const list = deliveries(12, '2026-09');
    sendDelayMs = 20;
    try {
      const [a, b] = await Promise.all([run(await open(url), list), run(await open(url), list)]);
      expect(a.sent.length + b.sent.length).toBe(12);
      expect(a.failed.concat(b.failed)).toEqual([]);
      for (const d of list) expect(count(`<orgreport.${d.key}@acme.test>`)).toBe(1);
      // The other run's share was skipped: claimed by the sender, or already sent.
      expect([...keysOf(a, 'skipped'), ...keysOf(b, 'skipped')].sort()).toEqual(
        [...keysOf(a, 'sent'), ...keysOf(b, 'sent')].sort(),
      );
    } finally {
      sendDelayMs = 0;
    }
  });

  it('leaves a claim of a live run to it, and takes over a gone run\u2019s claim exactly once, same Message-ID', async () => {
    const url = await location(backend);
    const [delivery] = deliveries(1, '2026-08');
    const id = `<orgreport.${delivery!.key}@acme.test>`;
    // A run claims the delivery and dies before sending: its claim stands for the lease.
    const gone = await open(url, { leaseMs: 60_000 });
    await gone.load([delivery!.key]);
    expect(
      await gone.claim({
        key: delivery!.key,
        state: 'sending',
        recipient: 'person-0',
        target: 'inbox:person-0',
        attempt: 1,
        messageId: id,
        sha256: {},
      }),
    ).toBeDefined();
    await gone.close();

    const live = await run(await open(url), [delivery!]);
    expect(live.skipped).toEqual([expect.objectContaining({ key: delivery!.key, reason: 'claimed' })]);
    expect(count(id)).toBe(0);

    // Past the lease, two runs at once: one takes the claim over and sends, the other finds it taken.
    const later = () => new Date(Date.now() + 61_000);
    const [a, b] = await Promise.all([
      run(await open(url, { now: later }), [delivery!]),
      run(await open(url, { now: later }), [delivery!]),
    ]);
    expect(a.sent.length + b.sent.length).toBe(1);
    expect(a.unknown.length + b.unknown.length).toBeGreaterThanOrEqual(1);
    expect(count(id)).toBe(1);
    const again = await run(await open(url), [delivery!]);
    expect(again.skipped.map((s) => s.reason)).toEqual(['sent']);
  });

  it('leaves a gone run\u2019s delivery unknown with unknown: skip', async () => {
    const url = await location(backend);
    const [delivery] = deliveries(1, '2026-07');
    const gone = await open(url, { leaseMs: 1 });
    await gone.load([delivery!.key]);
    await gone.claim({
      key: delivery!.key,
      state: 'sending',
      recipient: 'person-0',
      target: 'inbox:person-0',
      attempt: 1,
      messageId: 'x',
      sha256: {},
    });
    await gone.close();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const result = await run(await open(url), [delivery!], 'skip');
    expect(result.unknown).toEqual([expect.objectContaining({ action: 'skipped' })]);
    expect(result.sent).toEqual([]);
  });
});

describe('the shared ledger on S3: requests and faults', () => {
  it('retries SlowDown and a lost answer without sending twice', async () => {
    const url = backends.s3();
    const list = deliveries(3, '2026-06');
    const path = url.replace('s3://ledgers/', '/ledgers/');
    // The first claim: SlowDown twice, then its write lands and its answer is lost; the first
    // outcome's answer is lost too.
    s3.fail(
      { match: new RegExp(`^PUT ${path}deliveries/${list[0]!.key}`), status: 503, code: 'SlowDown' },
      { match: new RegExp(`^PUT ${path}deliveries/${list[0]!.key}`), status: 503, code: 'SlowDown' },
      {
        match: new RegExp(`^PUT ${path}deliveries/${list[0]!.key}`),
        status: 500,
        code: 'InternalError',
        afterForwarding: true,
      },
      {
        match: new RegExp(`^PUT ${path}deliveries/${list[0]!.key}`),
        status: 500,
        code: 'InternalError',
        afterForwarding: true,
      },
    );
    const result = await run(await open(url), list);
    expect(result.failed).toEqual([]);
    expect(result.sent).toHaveLength(3);
    for (const d of list) expect(count(`<orgreport.${d.key}@acme.test>`)).toBe(1);
    const again = await run(await open(url), list);
    expect(again.sent).toEqual([]);
  });

  it('makes one read per delivery and two writes per sent one, never a listing (400 deliveries)', async () => {
    const url = backends.s3();
    const list = deliveries(400, '2026-05');
    const path = url.replace('s3://ledgers/', '/ledgers/');
    const mine = (from: number) => s3.requests.slice(from).filter((r) => r.split(' ')[1]!.startsWith(path));
    const before = s3.requests.length;
    await run(await open(url), list);
    const first = mine(before);
    const reads = first.filter((r) => r.startsWith(`GET ${path}deliveries/`)).length;
    const writes = first.filter((r) => r.startsWith(`PUT ${path}deliveries/`)).length;
    expect({ reads, writes, lists: first.filter((r) => r.includes('list-type')).length }).toEqual({
      reads: 400,
      writes: 800,
      lists: 0,
    });
    // The ledger's own object: read, created, read back.
    expect(first.filter((r) => r.includes('ledger.json'))).toHaveLength(3);
    const at = s3.requests.length;
    await run(await open(url), list);
    const second = mine(at);
    expect(second.filter((r) => r.startsWith('GET'))).toHaveLength(401);
    expect(second.filter((r) => !r.startsWith('GET'))).toEqual([]);
  }, 180_000);

  it('stops before anything is sent when the bucket is missing or the credentials are refused', async () => {
    const missing = await open('s3://no-such-ledger-bucket/x/').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(LedgerConfigError);
    expect((missing as Error).message).toMatch(/the bucket no-such-ledger-bucket does not exist/);
    const secret = 'the-wrong-secret-key-42';
    const refused = await openSharedLedger('s3://ledgers/x/', {
      now: () => new Date(),
      settings: { ...s3.env, AWS_ACCESS_KEY_ID: 'NOBODY', AWS_SECRET_ACCESS_KEY: secret },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LedgerConfigError);
    expect((refused as Error).message).toMatch(/check AWS_ACCESS_KEY_ID/);
    expect((refused as Error).message).not.toContain(secret);
  });
});

describe('the shared ledger on Postgres: faults', () => {
  it('names refused credentials without the password, a refused connection, and another schema version', async () => {
    const wrong = await open(pg.wrongPasswordUrl).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(LedgerConfigError);
    expect((wrong as Error).message).toMatch(/refused the credentials: check the user and password/);
    expect((wrong as Error).message).not.toContain(pg.password);
    expect((wrong as Error).message).toContain(`postgres://127.0.0.1:${pg.port}/postgres`);

    const closed = await open(`postgres://orgreport:${pg.password}@127.0.0.1:1/postgres`).catch(
      (e: unknown) => e,
    );
    expect(closed).toBeInstanceOf(LedgerError);
    expect(closed).not.toBeInstanceOf(LedgerConfigError);
    expect((closed as Error).message).toMatch(
      /could not connect to the ledger's Postgres postgres:\/\/127\.0\.0\.1:1\/postgres/,
    );
    expect((closed as Error).message).not.toContain(pg.password);

    const url = await location('Postgres');
    (await open(url)).close();
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql`UPDATE orgreport_ledger_schema SET version = 2`;
    await sql.end();
    const newer = await open(url).catch((e: unknown) => e);
    expect(newer).toBeInstanceOf(LedgerConfigError);
    expect((newer as Error).message).toMatch(
      /holds tables of schema version 2; this orgreport uses version 1/,
    );
  });
});
