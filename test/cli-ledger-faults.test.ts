/**
 * A shared ledger that cannot be used stops `distribute` (and `monthly --deliver`) before anything is fetched or sent, with
 * the exit code of who is to fix it and a message that says what: a bucket that does not exist or
 * credentials S3 refuses (2), a Postgres that refuses the connection (1), refuses the password (2)
 * or holds tables of another schema version (2). The Postgres password is in no output.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { freePort, startPostgres, type TestPostgres } from '@orgreport/test-servers/postgres';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

let emulator: RunningEmulator;
let s3: TestS3;
let pg: TestPostgres;
let smtp: TestSmtp;
let people: string;
beforeAll(async () => {
  [emulator, s3, pg, smtp] = await Promise.all([
    smallOrg(),
    startS3({ buckets: ['ledger'] }),
    startPostgres(),
    startSmtp(),
  ]);
  people = join(tempDir('orgreport-ledger-faults-'), 'people.csv');
  expect((await cli(['emulator', '--seed', '7', '--users', '30', '--directory', people])).code).toBe(0);
});
afterAll(async () => {
  await emulator?.close();
  await s3?.close();
  await pg?.close();
  await smtp?.close();
});

async function distribute(env: Record<string, string>, ...extra: string[]) {
  const requests = emulator.requestLog.length;
  const run = await cli(
    [
      'distribute',
      '--month',
      '2026-10',
      '--directory',
      people,
      '--out',
      tempDir(),
      '--formats',
      'html',
      ...extra,
    ],
    {
      env: {
        ...envFor(emulator),
        ORGREPORT_SMTP_URL: smtp.url,
        ORGREPORT_MAIL_FROM: 'reports@acme.test',
        ...env,
      },
    },
  );
  // Nothing fetched, nothing sent.
  expect(emulator.requestLog.length - requests).toBe(0);
  expect(smtp.received).toEqual([]);
  return run;
}

describe('a shared ledger that cannot be used', () => {
  it('stops monthly --deliver before anything is fetched or written', async () => {
    const port = await freePort();
    const dir = tempDir('orgreport-ledger-monthly-');
    const out = join(dir, 'out');
    const requests = emulator.requestLog.length;
    const run = await cli(
      [
        'monthly',
        '--month',
        '2026-10',
        '--formats',
        'json',
        '--out',
        out,
        '--deliver',
        `dir:${join(dir, 'shared')}`,
      ],
      {
        env: {
          ...envFor(emulator),
          ORGREPORT_LEDGER: `postgres://orgreport:${pg.password}@127.0.0.1:${port}/postgres`,
        },
      },
    );
    expect(run.code, run.err).toBe(1);
    expect(run.err).toMatch(/could not connect to the ledger's Postgres/);
    expect(emulator.requestLog.length - requests).toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, 'shared'))).toBe(false);
    expect(run.err + run.out).not.toContain(pg.password);
  });

  it('on S3: a missing bucket, refused credentials (exit 2, the secret key not shown)', async () => {
    const missing = await distribute(s3.env, '--ledger', 's3://no-such-bucket/ledger/');
    expect(missing.code, missing.err).toBe(2);
    expect(missing.err).toMatch(/the bucket no-such-bucket does not exist: create it, or correct the URL/);
    const secret = 'not-the-right-secret-key-7';
    const refused = await distribute(
      { ...s3.env, AWS_ACCESS_KEY_ID: 'NOBODYKNOWS', AWS_SECRET_ACCESS_KEY: secret },
      '--ledger',
      's3://ledger/x/',
    );
    expect(refused.code, refused.err).toBe(2);
    expect(refused.err).toMatch(/S3 does not know the access key: check AWS_ACCESS_KEY_ID/);
    expect(refused.err + refused.out).not.toContain(secret);
  });

  it('on Postgres: a refused connection (exit 1), a refused password and another schema version (exit 2)', async () => {
    const port = await freePort();
    const closed = await distribute({
      ORGREPORT_LEDGER: `postgres://orgreport:${pg.password}@127.0.0.1:${port}/postgres`,
    });
    expect(closed.code, closed.err).toBe(1);
    expect(closed.err).toMatch(
      new RegExp(`could not connect to the ledger's Postgres postgres://127\\.0\\.0\\.1:${port}/postgres`),
    );

    const wrong = await distribute({ ORGREPORT_LEDGER: pg.wrongPasswordUrl });
    expect(wrong.code, wrong.err).toBe(2);
    expect(wrong.err).toMatch(/refused the credentials: check the user and password of the ledger's URL/);

    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    await sql`CREATE TABLE orgreport_ledger_schema (version integer NOT NULL)`;
    await sql`INSERT INTO orgreport_ledger_schema (version) VALUES (9)`;
    await sql.end();
    // In a config file too, the URL is a secret: never printed.
    const config = join(tempDir(), 'orgreport.config.json');
    writeFileSync(config, JSON.stringify({ ledger: pg.url }));
    const newer = await distribute({}, '--config', config);
    expect(newer.code, newer.err).toBe(2);
    expect(newer.err).toMatch(/holds tables of schema version 9; this orgreport uses version 1/);
    for (const run of [closed, wrong, newer]) {
      expect(run.err + run.out).not.toContain(pg.password);
      expect(run.err + run.out).not.toContain(pg.url);
    }
  });
});
