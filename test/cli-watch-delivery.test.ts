/**
 * `orgreport watch` delivering its alerts, end to end against servers on loopback: a planted
 * security change to a signed webhook and a real SMTP server, once, a rerun sending nothing; a
 * person's spike to the routes that may see that person and to no other, without a byte naming them
 * there; a watch killed with SIGKILL while the mail server holds its reply, every alert arriving
 * once by Message-ID after the rerun; a damaged store failing the run with one stale alert a day.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { deliveryKey } from '@orgreport/deliver';
import { directoryCsv, directoryOf, type RunningEmulator } from '@orgreport/emulator';
import type { Alert } from '@orgreport/watch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTeamsWorkflow } from '../packages/deliver/src/testing/teams-server.ts';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';
import { type ReceivedMail, startSmtp, type TestSmtp } from './smtp.ts';
import { startWebhooks, type TestWebhooks } from './webhook.ts';

const bin = fileURLToPath(new URL('../apps/report-cli/bin/orgreport.js', import.meta.url));
const SECRET = 'test-webhook-secret-123';
const SINCE = '2026-07-01';
const SECURITY_DAY = '2026-09-04'; // the watch of the 5th finds it, after a watch on the 4th
const SPIKE_DAY = '2026-09-08'; // the watch of the 9th finds it
const SPIKED_USER = 8; // of team Platform (3 people in September), cost center CC-100 Engineering
// 8x on every scope fires only the planted spike here: the user's, and their team's.
const SPIKE = { multiple: 8, scopes: ['organization', 'team', 'user'] };

interface WatchJson {
  alerts: Array<
    Alert & {
      due: boolean;
      routes: Array<{ route: number; to: string[] }>;
      withheld: Array<{ route: number; reason: string }>;
    }
  >;
  withheld: number;
  delivery: { deliveries: number; sent: number; alreadyDelivered: number; failed: string[] } | null;
}

let emulator: RunningEmulator;
let hooks: TestWebhooks;
let smtp: TestSmtp;
let spiked: string;
let orgId: string;
beforeAll(async () => {
  emulator = await smallOrg({
    plant: [
      { kind: 'security-change', day: SECURITY_DAY, setting: 'enableAgentShield' },
      { kind: 'credit-spike', user: SPIKED_USER, from: SPIKE_DAY, factor: 25 },
    ],
  });
  spiked = emulator.organization.identity(SPIKED_USER).email;
  orgId = emulator.organization.orgId;
  hooks = await startWebhooks(SECRET);
  smtp = await startSmtp();
});
afterAll(async () => {
  await emulator?.close();
  await hooks?.close();
  await smtp?.close();
});

/** A folder with a store synced through the day before `day`, the directory, and a config file. */
async function setUp(day: string, config: object): Promise<{ store: string; args: string[] }> {
  const dir = tempDir('orgreport-watch-delivery-');
  const store = join(dir, 'store');
  const people = join(dir, 'people.csv');
  writeFileSync(people, directoryCsv(emulator.organization));
  const configFile = join(dir, 'orgreport.config.json');
  writeFileSync(configFile, JSON.stringify(config));
  await syncTo(store, day);
  return {
    store,
    args: ['watch', '--store', store, '--config', configFile, '--directory', people, '--json'],
  };
}

async function syncTo(store: string, day: string): Promise<void> {
  const synced = await cli(['sync', '--store', store, '--since', SINCE, '--today', day, '--quiet'], {
    env: envFor(emulator),
  });
  expect(synced.code, synced.err).toBe(0);
}

const env = (extra: Record<string, string> = {}) => ({
  ORGREPORT_WEBHOOK_SECRET: SECRET,
  ORGREPORT_SMTP_URL: smtp.url,
  ORGREPORT_MAIL_FROM: 'orgreport@acme.test',
  ...extra,
});

async function watch(args: string[], day: string, ...more: string[]) {
  return watchWith(env(), args, day, ...more);
}

async function watchWith(vars: Record<string, string>, args: string[], day: string, ...more: string[]) {
  const run = await cli([...args, '--today', day, ...more], { env: vars });
  return { ...run, json: run.out ? (JSON.parse(run.out) as WatchJson) : undefined };
}

const hooksAt = (path: string) => hooks.received.filter((h) => h.path === path);
const mailsTo = (address: string, from = smtp) => from.received.filter((m) => m.recipients.includes(address));

/** Everything a mail carried, as bytes and as read. */
const mailBytes = (m: ReceivedMail) =>
  [m.raw.toString('utf8'), m.parsed.subject, m.parsed.text, m.parsed.html || '', m.parsed.textAsHtml].join(
    '\n',
  );

describe('orgreport watch delivers its alerts', () => {
  it('sends an alert to a route of teams:VARNAME, the Workflows URL read from the variable it names', async () => {
    const flow = await startTeamsWorkflow();
    try {
      const { store, args } = await setUp(SECURITY_DAY, {
        watch: { spike: SPIKE, routes: [{ to: ['teams:TEAMS_LEADS_URL'], rules: ['security'] }] },
      });
      const vars = env({ TEAMS_LEADS_URL: flow.url });
      const first = await watchWith(vars, args, SECURITY_DAY);
      expect(first.code, first.err).toBe(0);
      await syncTo(store, '2026-09-05');
      const run = await watchWith(vars, args, '2026-09-05');
      expect(run.code, run.err).toBe(0);
      expect(run.json!.delivery).toMatchObject({ deliveries: 1, sent: 1, failed: [] });
      expect(flow.cards).toHaveLength(1);
      expect(run.out + run.err).not.toContain(flow.sig);
    } finally {
      await flow.close();
    }
  }, 120_000);

  it('sends a security change once to a signed webhook and a mail server; a rerun sends nothing', async () => {
    const hook = `webhook:${hooks.origin}/security`;
    const { store, args } = await setUp(SECURITY_DAY, {
      watch: {
        spike: SPIKE,
        routes: [{ to: ['Security@acme.test', hook], people: 'all', rules: ['security', 'stale'] }],
      },
    });
    // The first watch takes the control history as seen; nothing is due.
    const first = await watch(args, SECURITY_DAY);
    expect(first.code, first.err).toBe(0);
    expect(first.json!.delivery).toMatchObject({ deliveries: 0, sent: 0 });

    await syncTo(store, '2026-09-05');
    const run = await watch(args, '2026-09-05');
    expect(run.code, run.err).toBe(0);
    const alert = run.json!.alerts.find((a) => a.due)!;
    expect(run.json!.alerts.filter((a) => a.due).map((a) => a.rule)).toEqual(['security']);
    expect(alert.routes).toEqual([{ route: 1, to: ['security@acme.test', hook] }]);
    expect(run.json!.delivery).toMatchObject({ deliveries: 2, sent: 2, alreadyDelivered: 0, failed: [] });

    // The webhook: one signed delivery whose body names the rule, the figures and where to see more.
    const [received, ...others] = hooksAt('/security');
    expect(others).toEqual([]);
    expect(received!.body).toMatchObject({
      kind: 'alert',
      summary: alert.sentence,
      meta: { rule: 'security', key: alert.key, org_id: orgId, person: 'false', month: '2026-09' },
    });
    expect(received!.body.subject).toContain('security setting changed');
    expect(received!.body.text).toContain('enableAgentShield');
    expect(received!.body.text).toContain('FROM control_revisions');
    expect(received!.key).toBe(
      deliveryKey({
        kind: 'alert',
        month: alert.period,
        recipient: hook,
        scope: alert.key,
        formats: [],
        target: hook,
      }),
    );
    // The mail: one, with the Message-ID of its delivery key.
    const mails = mailsTo('security@acme.test');
    expect(mails).toHaveLength(1);
    const key = deliveryKey({
      kind: 'alert',
      month: alert.period,
      recipient: 'security@acme.test',
      scope: alert.key,
      formats: [],
      target: 'security@acme.test',
    });
    expect(mails[0]!.parsed.messageId).toBe(`<orgreport.${key}@acme.test>`);
    expect(mails[0]!.parsed.subject).toBe(received!.body.subject);
    expect(mails[0]!.parsed.text).toContain(alert.sentence);

    // The ledger beside the store holds them as alerts.
    const ledger = readFileSync(join(store, '_ledger', 'deliveries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(ledger.map((l) => [l.state, l.kind, l.scope])).toEqual([
      ['sending', 'alert', alert.key],
      ['sent', 'alert', alert.key],
      ['sending', 'alert', alert.key],
      ['sent', 'alert', alert.key],
    ]);

    // The same day again: nothing is due, nothing arrives.
    const hooksBefore = hooks.received.length;
    const mailsBefore = smtp.received.length;
    const again = await watch(args, '2026-09-05');
    expect(again.code, again.err).toBe(0);
    expect(again.json!.alerts.filter((a) => a.due)).toEqual([]);
    expect(hooks.received.length).toBe(hooksBefore);
    expect(hooks.repeats).toEqual([]);
    expect(smtp.received.length).toBe(mailsBefore);
  });

  it("sends a person's spike only where the route may see them, and names nobody elsewhere", async () => {
    const at = (path: string) => `webhook:${hooks.origin}${path}`;
    const routes = [
      { to: [at('/all')], people: 'all' },
      { to: [at('/none'), 'finance@acme.test'], people: 'none' },
      { to: [at('/platform')], scope: 'team:Platform', people: 'scope', rules: ['spike'] },
      { to: [at('/web')], scope: 'team:Web', people: 'all' },
      { to: [at('/cc')], scope: 'cost-center:CC-100 Engineering', people: 'none' },
    ];
    const day = '2026-09-09';
    // Platform has 3 people in September (a fourth joins on 2026-10-15): under a minimum group size
    // of 4, its alert reaches no route that sees no one.
    const { args } = await setUp(day, { minGroupSize: 3, watch: { spike: SPIKE, routes } });
    const platform = directoryOf(emulator.organization)
      .filter((p) => p.team === 'Platform')
      .map((p) => p.email);
    expect(platform).toHaveLength(4);
    expect(platform).toContain(spiked);

    const received = hooks.received.length;
    const dry = await watch(args, day, '--dry-run', '--min-group-size', '4');
    expect(dry.code, dry.err).toBe(0);
    const plan = (json: WatchJson) =>
      Object.fromEntries(
        json.alerts
          .filter((a) => a.due)
          .map((a) => [
            a.key,
            { to: a.routes.map((r) => r.route), withheld: a.withheld.map((w) => w.route) },
          ]),
      );
    const userKey = `spike|user:${spiked}|${SPIKE_DAY}`;
    const teamKey = `spike|team:Platform|${SPIKE_DAY}`;
    expect(plan(dry.json!)).toEqual({
      [teamKey]: { to: [1, 3], withheld: [2, 5] },
      [userKey]: { to: [1, 3], withheld: [2, 5] },
    });
    expect(dry.json!.withheld).toBe(4);
    expect(dry.json!.alerts.find((a) => a.key === teamKey)!.withheld[0]!.reason).toMatch(
      /a group of 3 people in the directory, under the minimum group size of 4/,
    );
    expect(hooks.received.length).toBe(received);

    const run = await watch(args, day);
    expect(run.code, run.err).toBe(0);
    expect(plan(run.json!)).toEqual({
      [teamKey]: { to: [1, 2, 3, 5], withheld: [] },
      [userKey]: { to: [1, 3], withheld: [2, 5] },
    });
    expect(run.json!.withheld).toBe(2);
    expect(run.json!.delivery).toMatchObject({ deliveries: 7, sent: 7, failed: [] });

    // The routes that may see the person have both alerts, the person named.
    for (const path of ['/all', '/platform']) {
      const got = hooksAt(path);
      expect(got.map((h) => h.body.meta.key).sort(), path).toEqual([teamKey, userKey].sort());
      expect(got.find((h) => h.body.meta.key === userKey)!.body.meta.email).toBe(spiked);
    }
    // The team's query lists its people: the person too. (The watch counts a person in their latest
    // team, so it lists the one who joins Platform in October, whom the team's own route may not
    // see on the alert's day: there the query is left out.)
    expect(hooksAt('/all').find((h) => h.body.meta.key === teamKey)!.raw).toContain(spiked);
    expect(hooksAt('/web')).toEqual([]);
    // The routes that see no one have the team's alert only, and not a byte naming its people.
    const finance = mailsTo('finance@acme.test');
    const blind = [...hooksAt('/none'), ...hooksAt('/cc')];
    expect(blind.map((h) => h.body.meta.key)).toEqual([teamKey, teamKey]);
    expect(finance.map((m) => m.parsed.subject)).toEqual([blind[0]!.body.subject]);
    const bytes = [...blind.map((h) => h.raw), ...finance.map(mailBytes)].join('\n').toLowerCase();
    for (const email of platform) expect(bytes).not.toContain(email.toLowerCase());
    expect(bytes).not.toContain(emulator.organization.identity(SPIKED_USER).id.toLowerCase());
    // Its query named them, so it is left out; the report that shows more is still named.
    expect(blind[0]!.body.text).not.toContain('SELECT');
    expect(blind[0]!.body.text).toContain('orgreport monthly --partial --directory FILE');
  });

  it('exits 1 naming a delivery that failed, after the others; the next run delivers it, and only it', async () => {
    const hook = `webhook:${hooks.origin}/retry`;
    const day = '2026-09-09';
    const { args } = await setUp(day, {
      watch: { spike: SPIKE, routes: [{ to: ['ops@acme.test', hook], people: 'all', rules: ['spike'] }] },
    });
    // The receiver refuses a signature made with another secret (401: not retried).
    const refused = hooks.refused.length;
    const failing = await watchWith(env({ ORGREPORT_WEBHOOK_SECRET: 'test-other-secret-456' }), args, day);
    expect(failing.code).toBe(1);
    expect(hooks.refused.length).toBe(refused + 2);
    const message = failing.err.trim().split('\n').at(-1)!;
    expect(message).toMatch(/^orgreport: 2 of 4 deliveries failed, the others went out; run again to retry/);
    expect(message).toContain(`webhook:${hooks.origin}/retry (`);
    expect(`${failing.out}${failing.err}`).not.toContain('test-other-secret-456');
    expect(failing.json!.delivery).toMatchObject({ deliveries: 4, sent: 2, failed: [hook, hook] });
    expect(mailsTo('ops@acme.test')).toHaveLength(2);
    expect(hooksAt('/retry')).toEqual([]);

    // The state already has the alerts: the outbox still holds them, and the webhook's deliveries go.
    const retried = await watch(args, day);
    expect(retried.code, retried.err).toBe(0);
    expect(retried.json!.alerts.filter((a) => a.due).map((a) => a.new)).toEqual([false, false]);
    expect(retried.json!.delivery).toMatchObject({ deliveries: 4, sent: 2, alreadyDelivered: 2, failed: [] });
    expect(hooksAt('/retry')).toHaveLength(2);
    expect(mailsTo('ops@acme.test')).toHaveLength(2);

    const done = await watch(args, day);
    expect(done.json!.alerts.filter((a) => a.due)).toEqual([]);
    expect(hooksAt('/retry')).toHaveLength(2);
  });

  it('files each alert as a JSON document where a destination keeps documents: a folder, a bucket', async () => {
    // s3rver: the S3 protocol on loopback, its own test key pair.
    const S3rver = createRequire(import.meta.url)('s3rver') as new (
      options: Record<string, unknown>,
    ) => { run(): Promise<AddressInfo>; close(): Promise<void> };
    const objects = mkdtempSync(join(tmpdir(), 'orgreport-s3rver-'));
    const s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: objects,
      configureBuckets: [{ name: 'alerts' }],
    });
    const { port } = await s3.run();
    try {
      const day = '2026-09-09';
      const folder = join(tempDir('orgreport-alerts-'), 'alerts');
      const { args } = await setUp(day, {
        watch: { spike: SPIKE, routes: [{ to: ['s3://alerts/watch/', `dir:${folder}`], people: 'all' }] },
      });
      const endpoint = `http://127.0.0.1:${port}`;
      const run = await watchWith(
        env({
          ORGREPORT_S3_ENDPOINT: endpoint,
          ORGREPORT_S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
        }),
        args,
        day,
      );
      expect(run.code, run.err).toBe(0);
      expect(run.json!.delivery).toMatchObject({ deliveries: 4, sent: 4, failed: [] });
      const files = readdirSync(folder).sort();
      expect(files).toHaveLength(2);
      for (const f of files) expect(f).toMatch(/^orgreport-alert-2026-09-08-spike-[0-9a-f]{12}\.json$/);
      const client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: 'alerts' }));
      expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual(
        files.map((f) => `watch/2026-09/${f}`),
      );
      // The same document in both places: the alert's message, its key and rule in meta.
      for (const f of files) {
        const object = await client.send(
          new GetObjectCommand({ Bucket: 'alerts', Key: `watch/2026-09/${f}` }),
        );
        const stored = await object.Body!.transformToString();
        expect(stored).toBe(readFileSync(join(folder, f), 'utf8'));
        const document = JSON.parse(stored) as {
          subject: string;
          text: string;
          meta: Record<string, string>;
        };
        expect(document.meta).toMatchObject({ rule: 'spike', month: '2026-09', route: '1' });
        expect([`spike|user:${spiked}|${SPIKE_DAY}`, `spike|team:Platform|${SPIKE_DAY}`]).toContain(
          document.meta.key,
        );
        expect(document.text).toContain('More:');
      }
      client.destroy();
    } finally {
      await s3.close();
      rmSync(objects, { recursive: true, force: true });
    }
  });

  it('fails loudly on a damaged store, with one stale alert a day to the organization', async () => {
    const { store, args } = await setUp('2026-09-05', {
      watch: { routes: [{ to: [`webhook:${hooks.origin}/damage`] }] },
    });
    const file = `user_days/org_id=${orgId}/month=2026-09/part-0.parquet`;
    truncateSync(join(store, file), 0);
    const run = await watch(args, '2026-09-05');
    expect(run.code).toBe(1);
    const message = run.err.trim().split('\n').at(-1)!;
    expect(message).toBe(
      `orgreport: the store ${store} is damaged: ${file} is empty (0 bytes); remake every dataset from the raw responses the store keeps: orgreport sync --store ${store} --rebuild`,
    );
    const [alert, ...others] = hooksAt('/damage');
    expect(others).toEqual([]);
    expect(alert!.body.meta).toMatchObject({ rule: 'stale', severity: 'critical', period: '2026-09-05' });
    expect(alert!.body.summary).toContain(
      `cannot be read, so no alert rule ran on 2026-09-05: ${file} is empty`,
    );
    expect(alert!.body.summary).toContain(`orgreport sync --store ${store} --rebuild`);
    expect(run.json!.alerts.map((a) => [a.rule, a.due])).toEqual([['stale', true]]);

    // Again the same day: it fails again, and the alert is not sent twice.
    const again = await watch(args, '2026-09-05');
    expect(again.code).toBe(1);
    expect(hooksAt('/damage')).toHaveLength(1);
    expect(hooks.repeats).toEqual([]);
  });
});

describe('orgreport watch killed mid-delivery', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('delivers every alert exactly once by Message-ID after a SIGKILL while the server holds a reply', async () => {
    let release: (() => void) | undefined;
    let holdAt = 0;
    const held = await startSmtp({
      clientsMayDie: true,
      hold: (index) =>
        index === holdAt
          ? new Promise<void>((resolve) => {
              release = resolve;
            })
          : undefined,
    });
    try {
      const readers = ['a@acme.test', 'b@acme.test', 'c@acme.test'];
      const day = '2026-09-09';
      const { args } = await setUp(day, {
        watch: { spike: SPIKE, routes: [{ to: readers, people: 'all' }] },
      });
      const start = () => {
        const child = spawn(process.execPath, [bin, ...args, '--today', day], {
          env: { ...process.env, ORGREPORT_SMTP_URL: held.url, ORGREPORT_MAIL_FROM: 'orgreport@acme.test' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        let out = '';
        let err = '';
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
        });
        child.stderr!.on('data', (c: Buffer) => {
          err += c.toString();
        });
        const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        return { child, ended, out: () => out, err: () => err };
      };

      // Two alerts (the user's spike and their team's) to three readers: six mails. The server
      // takes the third and holds its reply; the watch dies not knowing whether it arrived.
      holdAt = 3;
      const first = start();
      const deadline = Date.now() + 120_000;
      while (held.received.length < holdAt) {
        if (first.child.exitCode !== null)
          throw new Error(`the watch ended (${first.child.exitCode}): ${first.err()}`);
        if (Date.now() > deadline) throw new Error('timed out waiting for the held mail');
        await new Promise((r) => setTimeout(r, 20));
      }
      first.child.kill('SIGKILL');
      await first.ended;
      release?.();

      // The rerun: the state already says the alerts were found, so they come from the outbox.
      const second = start();
      expect(await second.ended, second.err()).toBe(0);
      const json = JSON.parse(second.out()) as WatchJson;
      expect(json.alerts.filter((a) => a.due && !a.new)).toHaveLength(2);
      expect(second.err()).toMatch(
        /whether it arrived is unknown; sending it again with the same Message-ID/,
      );

      const byReader = new Map<string, Map<string, number>>();
      for (const m of held.received) {
        for (const r of m.recipients) {
          const ids = byReader.get(r) ?? new Map<string, number>();
          ids.set(m.parsed.messageId ?? '', (ids.get(m.parsed.messageId ?? '') ?? 0) + 1);
          byReader.set(r, ids);
        }
      }
      expect([...byReader.keys()].sort()).toEqual(readers);
      const unknown = second
        .err()
        .split('\n')
        .filter((l) => l.includes('whether it arrived is unknown'));
      expect(unknown).toHaveLength(1);
      for (const [reader, ids] of byReader) {
        expect(ids.size, reader).toBe(2); // both alerts, each with its own Message-ID
        for (const [id, count] of ids) {
          // A raw repeat only for the delivery the rerun named unknown, with the same Message-ID.
          if (count > 1) expect(unknown[0], `${reader} ${id}`).toContain(reader);
          expect(count).toBeLessThanOrEqual(2);
        }
      }
      expect(held.received).toHaveLength(7);

      // Once more: nothing is due, nothing is sent.
      const third = start();
      expect(await third.ended, third.err()).toBe(0);
      expect(held.received).toHaveLength(7);
    } finally {
      release?.();
      await held.close();
    }
  }, 300_000);
});
