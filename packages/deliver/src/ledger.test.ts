/** The ledger: whole lines on disk, the status of every delivery, a torn last line, its mode, its lock, several parts read together. */
import { spawn, spawnSync } from 'node:child_process';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerError, type LedgerEvent, LedgerLockedError, openLedger, readLedgers } from './index.ts';
import { removeScratch, scratchDir, ticking } from './testing/fixtures.ts';

afterAll(removeScratch);

function event(key: string, state: LedgerEvent['state'], attempt: number, extra: object = {}): LedgerEvent {
  return {
    key,
    state,
    recipient: `${key}@example.com`,
    target: `${key}@example.com`,
    attempt,
    messageId: `<orgreport.${key}@example.com>`,
    sha256: { 'report.pdf': 'ab'.repeat(32) },
    month: '2026-10',
    ...extra,
  };
}

async function lines(path: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('a ledger', () => {
  it('appends one whole JSON line per event, with the clock, and says new / unknown / sent / failed', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const ledger = await openLedger(path, { now: ticking() });
    try {
      expect(ledger.status('a')).toBe('new');
      await ledger.append(event('a', 'sending', 1));
      expect(ledger.status('a')).toBe('unknown');
      await ledger.append(event('a', 'sent', 1, { id: '<x@y>', location: '/srv/reports' }));
      expect(ledger.status('a')).toBe('sent');
      await ledger.append(event('b', 'sending', 1));
      await ledger.append(event('b', 'failed', 1, { error: '451 try later' }));
      expect(ledger.status('b')).toBe('failed');
    } finally {
      await ledger.close();
    }
    const written = await lines(path);
    expect(written).toHaveLength(4);
    expect(written[1]).toEqual({
      v: 1,
      key: 'a',
      state: 'sent',
      at: '2026-11-01T06:00:02.000Z', // the lock took the first tick
      recipient: 'a@example.com',
      target: 'a@example.com',
      attempt: 1,
      messageId: '<orgreport.a@example.com>',
      sha256: { 'report.pdf': 'ab'.repeat(32) },
      id: '<x@y>',
      location: '/srv/reports',
      month: '2026-10',
    });
    expect(written[3]).toMatchObject({ key: 'b', state: 'failed', error: '451 try later' });

    // Reopened: the same statuses from the file.
    const again = await openLedger(path, { now: ticking() });
    try {
      expect([again.status('a'), again.status('b'), again.status('c')]).toEqual(['sent', 'failed', 'new']);
      expect(again.get('a')?.lastSent?.location).toBe('/srv/reports');
    } finally {
      await again.close();
    }
  });

  it('keeps a delivery sent when a later resend of it fails, and unknown when a later resend never finished', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const ledger = await openLedger(path, { now: ticking() });
    try {
      await ledger.append(event('a', 'sending', 1));
      await ledger.append(event('a', 'sent', 1, { id: 'x' }));
      await ledger.append(event('a', 'sending', 2));
      await ledger.append(event('a', 'failed', 2, { error: 'refused' }));
      expect(ledger.status('a')).toBe('sent');
      await ledger.append(event('a', 'sending', 3));
      expect(ledger.status('a')).toBe('unknown');
    } finally {
      await ledger.close();
    }
  });

  it('is created owner-only (0600) whatever the umask, or with the mode asked for; its lock too', async () => {
    const dir = scratchDir();
    const old = process.umask(0o022);
    try {
      const ledger = await openLedger(join(dir, 'private.jsonl'), { now: ticking() });
      expect((await stat(join(dir, 'private.jsonl.lock'))).mode & 0o777).toBe(0o600);
      await ledger.close();
      process.umask(0o077);
      const shared = await openLedger(join(dir, 'shared.jsonl'), { now: ticking(), mode: 0o640 });
      await shared.close();
    } finally {
      process.umask(old);
    }
    expect((await stat(join(dir, 'private.jsonl'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'shared.jsonl'))).mode & 0o777).toBe(0o640);
  });

  it('ignores a torn last line, reports it, and goes on from a line of its own', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const first = await openLedger(path, { now: ticking() });
    await first.append(event('a', 'sending', 1));
    await first.append(event('b', 'sending', 1));
    await first.close();
    // A crash in the middle of writing a's 'sent' line.
    const torn = JSON.stringify({ v: 1, key: 'a', state: 'sent', at: '2026-11-01T06:00:05.000Z' }).slice(
      0,
      40,
    );
    await appendFile(path, torn);

    const read = await readLedgers([path]);
    expect(read.torn).toEqual([{ path, line: 3, bytes: 40 }]);
    expect(read.index.status('a')).toBe('unknown');

    const ledger = await openLedger(path, { now: ticking() });
    try {
      expect(ledger.torn).toEqual({ path, line: 3, bytes: 40 });
      expect(ledger.status('a')).toBe('unknown');
      await ledger.append(event('b', 'sent', 1, { id: 'x' }));
    } finally {
      await ledger.close();
    }
    const written = await lines(path);
    expect(written.map((l) => `${l.key} ${l.state}`)).toEqual(['a sending', 'b sending', 'b sent']);
  });

  it('refuses a damaged line in the middle (skipping it could send twice), naming the line', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const ok = JSON.stringify({ v: 1, ...event('a', 'sent', 1), at: '2026-11-01T06:00:00.000Z' });
    await writeFile(path, `${ok}\n{"v":1,"key":\n${ok}\n`);
    await expect(openLedger(path, { now: ticking() })).rejects.toThrow(/line 2: not JSON/);
    await expect(readLedgers([path])).rejects.toBeInstanceOf(LedgerError);
    // Refused, the ledger is not held.
    await writeFile(path, `${JSON.stringify({ ...JSON.parse(ok), v: 2 })}\n`);
    await expect(openLedger(path, { now: ticking() })).rejects.toThrow(/version 2/);
  });

  it('refuses a record field that would overwrite one of its own', async () => {
    const ledger = await openLedger(join(scratchDir(), 'l.jsonl'), { now: ticking() });
    try {
      await expect(
        ledger.append({ ...event('a', 'sending', 1), error: 'x', at: 'now' } as LedgerEvent),
      ).rejects.toThrow(/may not be named at/);
    } finally {
      await ledger.close();
    }
  });

  it('reads 100k lines keeping one record per delivery', async () => {
    const path = join(scratchDir(), 'big.jsonl');
    const parts: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      const base = { v: 1, ...event(`k${i}`, 'sending', 1), at: '2026-11-01T06:00:00.000Z' };
      parts.push(JSON.stringify(base), JSON.stringify({ ...base, state: i % 10 === 0 ? 'failed' : 'sent' }));
    }
    await writeFile(path, `${parts.join('\n')}\n`);
    const started = performance.now();
    const ledger = await openLedger(path, { now: ticking() });
    const ms = performance.now() - started;
    try {
      expect(ledger.index.size).toBe(50_000);
      expect(ledger.index.counts()).toEqual({ sent: 45_000, failed: 5_000, unknown: 0 });
      expect(ms).toBeLessThan(5_000);
    } finally {
      await ledger.close();
    }
  });
});

describe('the lock beside a ledger', () => {
  it('keeps a second opener out, naming the process, its host and since when; free again once closed', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const ledger = await openLedger(path, { now: ticking('2026-11-01T06:00:00.000Z') });
    const second = openLedger(path, { now: ticking() });
    await expect(second).rejects.toBeInstanceOf(LedgerLockedError);
    await expect(second).rejects.toThrow(
      `process ${process.pid} on ${hostname()} (since 2026-11-01T06:00:00.000Z)`,
    );
    await ledger.close();
    const third = await openLedger(path, { now: ticking() });
    await third.close();
  });

  it('is taken over when its process is gone', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const dead = spawnSync(process.execPath, ['-e', '']);
    expect(dead.status).toBe(0);
    await writeFile(`${path}.lock`, JSON.stringify({ pid: dead.pid, host: hostname(), since: 'then' }));
    const ledger = await openLedger(path, { now: ticking() });
    try {
      expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    } finally {
      await ledger.close();
    }
  });

  it('is not taken from a live process', async () => {
    const path = join(scratchDir(), 'ledger.jsonl');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(
        `${path}.lock`,
        JSON.stringify({ pid: other.pid, host: hostname(), since: '2026-11-01T05:00:00Z' }),
      );
      await expect(openLedger(path, { now: ticking() })).rejects.toThrow(
        `in use by process ${other.pid} on ${hostname()} (since 2026-11-01T05:00:00Z)`,
      );
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('readLedgers', () => {
  it('reads the parts of sharded jobs together; a key in two parts takes the later line', async () => {
    const dir = scratchDir();
    const parts = [1, 2].map((k) => join(dir, `ledger.part-${k}-of-2.jsonl`));
    const one = await openLedger(parts[0]!, { now: ticking('2026-11-01T06:00:00.000Z') });
    await one.append(event('a', 'sending', 1));
    await one.append(event('a', 'sent', 1, { id: 'x' }));
    await one.append(event('c', 'sending', 1));
    await one.close();
    const two = await openLedger(parts[1]!, { now: ticking('2026-11-01T07:00:00.000Z') });
    await two.append(event('b', 'sending', 1));
    await two.append(event('b', 'failed', 1, { error: 'refused' }));
    await two.append(event('c', 'sending', 2));
    await two.append(event('c', 'sent', 2, { id: 'y' }));
    await two.close();

    const read = await readLedgers([...parts, join(dir, 'ledger.part-3-of-2.jsonl')]);
    expect(read.files.map((f) => f.lines)).toEqual([3, 4, 0]);
    expect(read.torn).toEqual([]);
    expect(['a', 'b', 'c', 'd'].map((k) => read.index.status(k))).toEqual(['sent', 'failed', 'sent', 'new']);
    expect(read.index.get('c')?.last.attempt).toBe(2);
    expect(read.index.counts()).toEqual({ sent: 2, failed: 1, unknown: 0 });
  });

  it('counts the other parts of an open ledger (`alsoRead`): what they sent is sent, new lines stay in its own file', async () => {
    const dir = scratchDir();
    const whole = join(dir, 'ledger.jsonl');
    const part = join(dir, 'ledger.part-1-of-2.jsonl');
    const one = await openLedger(part, { now: ticking('2026-11-01T06:00:00.000Z') });
    await one.append(event('a', 'sending', 1));
    await one.append(event('a', 'sent', 1));
    await one.append(event('b', 'sending', 1)); // the job died sending it
    await one.close();

    const ledger = await openLedger(whole, {
      now: ticking('2026-11-01T07:00:00.000Z'),
      alsoRead: [part, whole],
    });
    try {
      expect(['a', 'b', 'c'].map((k) => ledger.status(k))).toEqual(['sent', 'unknown', 'new']);
      await ledger.append(event('b', 'sending', 2));
      await ledger.append(event('b', 'sent', 2));
      expect(ledger.status('b')).toBe('sent');
    } finally {
      await ledger.close();
    }
    expect((await lines(whole)).map((l) => [l.key, l.state])).toEqual([
      ['b', 'sending'],
      ['b', 'sent'],
    ]);
    expect((await lines(part)).length).toBe(3);
    // A part opened after the whole run's ledger counts it too.
    const again = await openLedger(part, { now: ticking('2026-11-01T08:00:00.000Z'), alsoRead: [whole] });
    expect(['a', 'b'].map((k) => again.status(k))).toEqual(['sent', 'sent']);
    await again.close();
  });
});
