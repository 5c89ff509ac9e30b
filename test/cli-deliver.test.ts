/**
 * `monthly --deliver`: the same report to a folder, a bucket (s3rver on loopback, read back by a
 * separate S3 client) and a signed webhook (a receiver on loopback that checks the signature as
 * docs/destinations.md shows), each delivery in the ledger: the stores go first and the webhook
 * gets where the documents are; a rerun sends nothing; the webhook secret and the S3 secret key
 * appear in no output.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { RunningEmulator } from '@orgreport/emulator';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamsWorkflow } from '../packages/deliver/src/testing/teams-server.ts';
import { cli, envFor, tempDir } from './helpers.ts';

const SECRET = 'webhook-test-secret-value';
const S3_KEY = 'S3RVER';
const S3_SECRET = 'S3RVER';

/** Checks a signature the way the docs' receiver does: HMAC-SHA256 of `t.body`, at most 5 minutes old. */
function verified(body: Buffer, header: string | undefined): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', SECRET).update(`${t}.`).update(body).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let emulator: RunningEmulator;
let hook: Server;
let hookUrl: string;
const received: Array<{ body: Record<string, unknown>; delivery: string }> = [];
let s3: S3rver;
let s3Url: string;

beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  emulator = await startEmulator({ seed: 5, users: 30, today: '2026-11-22' });
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!verified(body, req.headers['x-orgreport-signature'] as string | undefined)) {
        res.writeHead(401).end('bad signature');
        return;
      }
      received.push({
        body: JSON.parse(body.toString('utf8')),
        delivery: String(req.headers['x-orgreport-delivery']),
      });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/orgreport`;
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir('orgreport-s3rver-'),
    configureBuckets: [{ name: 'reports', configs: [] }],
  });
  const { port } = await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await emulator?.close();
  await new Promise((resolve) => hook?.close(resolve));
  await s3?.close();
});

const QUERY_TOKEN = 'qtoken-planted-7f3a';

describe('monthly --deliver', () => {
  it('delivers the report to a folder, a bucket and a signed webhook, once', async () => {
    const dir = tempDir('orgreport-deliver-');
    const out = join(dir, 'out');
    const args = [
      'monthly',
      '--month',
      '2026-10',
      '--formats',
      'pdf,json',
      '--out',
      out,
      '--deliver',
      `webhook:${hookUrl}?token=${QUERY_TOKEN},s3://reports/orgreport/,dir:${join(dir, 'shared')}`,
    ];
    const env = {
      ...envFor(emulator),
      ORGREPORT_WEBHOOK_SECRET: SECRET,
      ORGREPORT_S3_ENDPOINT: s3Url,
      ORGREPORT_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3_KEY,
      AWS_SECRET_ACCESS_KEY: S3_SECRET,
    };
    const run = await cli(args, { env });
    expect(run.code, run.err).toBe(0);
    const pdf = readdirSync(out).find((f) => f.endsWith('.pdf'))!;
    const json = readdirSync(out).find((f) => f.endsWith('.json') && f.startsWith('orgreport-'))!;
    // A target that stores documents takes every document the run rendered (--formats): the folder
    // holds the PDF and the JSON byte for byte, and nothing else (no snapshot).
    expect(readdirSync(join(dir, 'shared')).sort()).toEqual([json, pdf].sort());
    for (const file of [pdf, json])
      expect(readFileSync(join(dir, 'shared', file)).equals(readFileSync(join(out, file)))).toBe(true);
    // The bucket, read back by a client of its own.
    const client = new S3Client({
      endpoint: s3Url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_SECRET },
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'reports', Prefix: 'orgreport/' }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual(
      [`orgreport/2026-10/${json}`, `orgreport/2026-10/${pdf}`].sort(),
    );
    const object = await client.send(
      new GetObjectCommand({ Bucket: 'reports', Key: `orgreport/2026-10/${pdf}` }),
    );
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(readFileSync(join(out, pdf)))).toBe(
      true,
    );
    // The webhook, signed, after the stores: it lists where the documents are.
    expect(received).toHaveLength(1);
    const links = (received[0]!.body.links as Array<{ url: string }>).map((l) => l.url);
    expect(links).toContain('s3://reports/orgreport/2026-10/');
    expect(links.some((l) => l.endsWith('shared'))).toBe(true);
    expect(received[0]!.body.summary).toEqual(expect.any(String));
    // The ledger beside the report holds the three deliveries.
    const ledger = readFileSync(join(out, 'deliveries.jsonl'), 'utf8');
    expect(ledger.split('\n').filter((l) => l.includes('"state":"sent"'))).toHaveLength(3);
    for (const text of [run.out, run.err, ledger]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(`${S3_SECRET}@`);
      // A token in the webhook's query string is the target's secret: not printed, not in the ledger.
      expect(text).not.toContain(QUERY_TOKEN);
    }

    const again = await cli(args, { env });
    expect(again.code, again.err).toBe(0);
    expect(received).toHaveLength(1);
    expect(again.err).toMatch(/0 sent, 3 already delivered/);
    // Its summary says so too: nothing is said to be delivered by this run.
    const already = /, already delivered to (.*) \(not sent again\)\n$/.exec(again.out)?.[1]?.split(', ');
    expect(already?.map((t) => t.split(':')[0]).sort()).toEqual(['dir', 's3', 'webhook']);
    expect(again.out).not.toMatch(/, delivered to/);
  }, 120_000);

  it('delivers the formats asked for to a folder, and renders no PDF that neither --formats nor a mail asks for', async () => {
    const dir = tempDir('orgreport-deliver-');
    const out = join(dir, 'out');
    const args = ['monthly', '--month', '2026-10', '--formats', 'json,html', '--out', out];
    const run = await cli([...args, '--deliver', `dir:${join(dir, 'shared')}`], { env: envFor(emulator) });
    expect(run.code, run.err).toBe(0);
    const documents = readdirSync(out).filter((f) => f.startsWith('orgreport-'));
    expect(documents.map((f) => f.slice(f.lastIndexOf('.'))).sort()).toEqual(['.html', '.json']);
    expect(readdirSync(join(dir, 'shared')).sort()).toEqual(documents.sort());
  }, 120_000);

  it('delivers to teams:VARNAME, the Workflows URL read from the variable it names', async () => {
    const flow = await startTeamsWorkflow();
    try {
      const out = tempDir('orgreport-deliver-teams-');
      const args = ['monthly', '--month', '2026-10', '--formats', 'json', '--out', out];
      const run = await cli([...args, '--deliver', 'teams:TEAMS_LEADS_URL'], {
        env: { ...envFor(emulator), TEAMS_LEADS_URL: flow.url },
      });
      expect(run.code, run.err).toBe(0);
      expect(flow.cards).toHaveLength(1);
      expect(JSON.stringify(flow.cards[0])).toContain('report for 2026-10');
      for (const text of [run.out, run.err, readFileSync(join(out, 'deliveries.jsonl'), 'utf8')]) {
        expect(text).not.toContain(flow.sig);
      }
    } finally {
      await flow.close();
    }
  }, 120_000);

  it('refuses a target no destination takes before anything is fetched, naming the known ones', async () => {
    const before = emulator.requestLog.length;
    const run = await cli(['monthly', '--out', tempDir(), '--deliver', 'matrix:#room'], {
      env: envFor(emulator),
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/delivery target "matrix:#room": .*no destination has the scheme matrix/);
    expect(run.err).toContain('slack:#channel');
    expect(emulator.requestLog.length).toBe(before);
  });
});
