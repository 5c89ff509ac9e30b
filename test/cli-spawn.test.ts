/** A few true end-to-end runs of the `orgreport` bin as a separate process. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '@orgreport/store';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.ts';

const bin = fileURLToPath(new URL('../apps/report-cli/bin/orgreport.js', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Lines of a child's stdout, as they arrive. */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing ${pattern}: ${text}`)));
  });
}

describe('the orgreport bin', () => {
  it('hook record appends an event from stdin and exits 0; a bad event exits 1 quickly', () => {
    const log = join(tempDir(), 'hooks.jsonl');
    const env = { ...process.env, ORGREPORT_HOOK_LOG: log };
    const ok = spawnSync(process.execPath, [bin, 'hook', 'record'], {
      input: '{"hook_event_name":"Notification","session_id":"s1","cwd":"/w","message":"waiting"}',
      env,
      encoding: 'utf8',
    });
    expect(ok.status, ok.stderr).toBe(0);
    const event = JSON.parse(readFileSync(log, 'utf8'));
    expect(event).toMatchObject({ hook_event_name: 'Notification', message: 'waiting' });
    expect(Date.parse(event.recorded_at)).not.toBeNaN();

    const bad = spawnSync(process.execPath, [bin, 'hook', 'record'], {
      input: 'not json',
      env,
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/hook event .*expected a JSON object/);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('emulator prints its addresses and keys, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        bin,
        'emulator',
        '--port',
        '0',
        '--users',
        '10',
        '--today',
        '2026-11-22',
        '--keys',
        'owner:test-key-owner,manager:test-key-manager,member:test-key-member',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const printed = await waitForOutput(child, /member key: .+\n/);
    const baseUrl = /ORGREPORT_BASE_URL=(\S+)/.exec(printed)![1]!;
    expect(printed).toContain('manager key: test-key-manager');
    const response = await fetch(`${baseUrl}/api/v0/organization/users?limit=3`, {
      headers: { authorization: 'Bearer test-key-owner' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { users: unknown[] }).users).toHaveLength(3);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('query stops quietly when its reader closes the pipe (| head): exit 0, no stack trace', async () => {
    const store = tempDir();
    await openStore(store, { create: true });
    const child = spawn(
      process.execPath,
      [
        bin,
        'query',
        '--store',
        store,
        '--format',
        'csv',
        '--max-rows',
        '200000',
        'SELECT range AS n FROM range(200000)',
      ],
      { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Read the header and the first row, then close the pipe as `head -2` does.
    const first = await waitForOutput(child, /^n\r\n0\r\n/);
    expect(first.startsWith('n\r\n0\r\n')).toBe(true);
    child.stdout!.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|node:events/);
    expect(code, stderr).toBe(0);
  });

  it('monthly --demo runs with no key and no configuration', () => {
    const out = tempDir();
    const result = spawnSync(
      process.execPath,
      [bin, 'monthly', '--demo', '--demo-users', '20', '--formats', 'json', '--out', out],
      {
        env: { PATH: process.env.PATH ?? '' },
        encoding: 'utf8',
      },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/orgreport-[a-z0-9-]+-\d{4}-\d{2}\.json/);
  });
});
