import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from './cli.ts';
import { memoryIo } from './testing.ts';

describe('run()', () => {
  it('documents the exit codes in --help and exits 0', async () => {
    const io = memoryIo();
    expect(await run(['--help'], io)).toBe(0);
    expect(io.out()).toContain('Exit codes:');
    expect(io.out()).toMatch(/3 {2}authentication or permission/);
  });

  it('starts a newcomer in --help: the demo command, and the manual, a file the repository holds', async () => {
    const io = memoryIo();
    expect(await run(['--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^ {2}orgreport monthly --demo /m);
    const manual = /The manual: (\S+) in orgreport's repository/.exec(io.out());
    expect(manual, io.out()).not.toBeNull();
    await readFile(new URL(`../../../${manual![1]}`, import.meta.url), 'utf8');
  });

  it("points distribute's help to the plan that reaches cost-center owners, a file the repository holds", async () => {
    const io = memoryIo();
    expect(await run(['distribute', '--help'], io)).toBe(0);
    const example = io.out().match(/orgreport distribute --demo --plan (\S+) --dry-run/);
    expect(example, io.out()).not.toBeNull();
    const plan = await readFile(new URL(`../../../${example![1]}`, import.meta.url), 'utf8');
    expect(plan).toContain('each: cost-center');
    expect(io.out()).toContain('docs/distribution.md');
    await readFile(new URL('../../../docs/distribution.md', import.meta.url), 'utf8');
  });

  it('gives every command that runs an example in its --help', async () => {
    // Every leaf of the command tree, from the top-level help down.
    const commandsOf = (help: string) =>
      // The list of commands ends at the first blank line (what follows is the help's closing text).
      [...(help.split(/\nCommands:\n/)[1]?.split(/\n\n/)[0] ?? '').matchAll(/^ {2}([a-z][a-z-]*)/gm)]
        .map((m) => m[1]!)
        .filter((c) => c !== 'help');
    const leaves: string[][] = [];
    const visit = async (path: string[]) => {
      const io = memoryIo();
      expect(await run([...path, '--help'], io), path.join(' ')).toBe(0);
      const children = commandsOf(io.out());
      if (children.length === 0) {
        leaves.push(path);
        expect(io.out(), path.join(' ')).toMatch(/\nExample[^:\n]*: orgreport /);
      }
      for (const child of children) await visit([...path, child]);
    };
    await visit([]);
    expect(leaves.length).toBeGreaterThan(20);
  });

  it("exits 2 on an unknown command or flag, with commander's message", async () => {
    const io = memoryIo();
    expect(await run(['monthy'], io)).toBe(2);
    expect(io.err()).toContain("unknown command 'monthy'");
    expect(await run(['monthly', '--colour'], memoryIo())).toBe(2);
    // Help for a command that does not exist says so, with the suggestion, not the whole help.
    const help = memoryIo();
    expect(await run(['help', 'montly'], help)).toBe(2);
    expect(help.err()).toMatch(/unknown command 'montly'\s*\(Did you mean monthly\?\)/);
    expect(help.out()).toBe('');
    const known = memoryIo();
    expect(await run(['help', 'monthly'], known)).toBe(0);
    expect(known.out()).toMatch(/^Usage: orgreport monthly/);
  });

  it.each([
    ['2026-13', /--month "2026-13" is invalid: expected a month as YYYY-MM/],
    ['2026-11', /the month is not over \(data runs up to 2026-11-21\).*2026-10/],
    ['2025-12', /analytics data starts on 2026-01-14/],
    ['next', /--month "next" is invalid/],
  ])('refuses --month %s before connecting (exit 2)', async (month, message) => {
    const io = memoryIo();
    expect(await run(['monthly', '--month', month, '--today', '2026-11-22'], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('stopped while it fetches, starts no more work: no report, no half-written file, and says so', async () => {
    const out = await mkdtemp(join(tmpdir(), 'orgreport-stop-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const io = memoryIo({ env: {} });
    const running = run(
      ['monthly', '--demo', '--formats', 'json', '--out', out, '--today', '2026-11-22'],
      io,
    );
    // The fetch has begun (the demo's emulator is up): the signal comes before the report is written.
    while (!io.err().includes('demo: emulated organization')) await new Promise((r) => setTimeout(r, 5));
    io.stop('SIGTERM');
    expect(await running).toBe(143);
    await new Promise((r) => setTimeout(r, 200));
    expect(io.exited()).toBe(143);
    expect(readdirSync(out)).toEqual([]);
    expect(io.err()).toMatch(/orgreport: stopped by SIGTERM; what was not finished was removed/);
  });

  it('exits 3 without an API key, naming the variable', async () => {
    const io = memoryIo({ env: { ORGREPORT_BASE_URL: 'http://127.0.0.1:9' } });
    expect(await run(['monthly', '--month', '2026-10'], io)).toBe(3);
    expect(io.err()).toMatch(/no API key: set ORGREPORT_API_KEY/);
  });

  it('never prints the API key, even in an error about the address', async () => {
    const io = memoryIo({
      env: { ORGREPORT_API_KEY: 'test-key-owner-123', ORGREPORT_BASE_URL: 'test-key-owner-123' },
    });
    expect(await run(['api', 'computers', 'list'], io)).toBe(2);
    expect(io.err()).toContain('ORGREPORT_BASE_URL');
    expect(io.err()).not.toContain('test-key-owner-123');
  });

  it('asks for an SMTP server before fetching when --email is given', async () => {
    const io = memoryIo();
    expect(await run(['monthly', '--demo', '--email', 'cfo@example.com'], io)).toBe(2);
    expect(io.err()).toMatch(/--email needs an SMTP server/);
    // An address among --deliver is named as such, not as --email.
    const delivering = memoryIo();
    expect(await run(['monthly', '--demo', '--deliver', 'cfo@example.com'], delivering)).toBe(2);
    expect(delivering.err()).toMatch(/^orgreport: an e-mail address in --deliver needs an SMTP server/);
  });

  it("asks for every destination's settings before fetching: a token, a webhook's URL, a target's variable", async () => {
    for (const [target, variable] of [
      ['teams', 'ORGREPORT_TEAMS_WEBHOOK_URL'],
      ['teams:OPS_WEBHOOK', 'OPS_WEBHOOK'],
      ['slack:#eng-leads', 'ORGREPORT_SLACK_TOKEN'],
      ['webhook:https://hooks.example.com/x', 'ORGREPORT_WEBHOOK_SECRET'],
    ]) {
      const io = memoryIo();
      expect(await run(['monthly', '--demo', '--deliver', target!], io), target).toBe(2);
      expect(io.err()).toMatch(new RegExp(`^orgreport: ${variable} is not set`));
      expect(io.err()).not.toMatch(/^fetch|^demo:/m); // nothing fetched, nothing started
    }
    // A dry run of distribute checks the same, and passes once the variable is set (showing no value).
    const folder = mkdtempSync(join(tmpdir(), 'orgreport-plan-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const plan = join(folder, 'plan.json');
    writeFileSync(plan, JSON.stringify({ rules: [{ scope: 'org', deliver: ['teams:OPS_WEBHOOK'] }] }));
    const unset = memoryIo();
    expect(await run(['distribute', '--demo', '--dry-run', '--plan', plan], unset)).toBe(2);
    expect(unset.err()).toMatch(/^orgreport: OPS_WEBHOOK is not set/);
    const url = 'https://prod-00.example.logic.azure.com/workflows/x?sig=abc123';
    const set = memoryIo({ env: { OPS_WEBHOOK: url } });
    expect(await run(['distribute', '--demo', '--dry-run', '--plan', plan], set), set.err()).toBe(0);
    expect(set.out()).toContain('teams:OPS_WEBHOOK');
    expect(set.out() + set.err()).not.toContain('sig=abc123');
  });

  it('asks for a sender unless the SMTP user is an e-mail address, and never shows the password', async () => {
    const io = memoryIo({ env: { ORGREPORT_SMTP_URL: 'smtp://relay:secret-pass-9@127.0.0.1:1' } });
    expect(await run(['monthly', '--demo', '--email', 'cfo@example.com'], io)).toBe(2);
    expect(io.err()).toMatch(/--email needs a sender address: set --mail-from, ORGREPORT_MAIL_FROM/);
    expect(io.err()).not.toContain('secret-pass-9');
    const { resolveConfig } = await import('./config/config.ts');
    const sources = {
      env: { ORGREPORT_SMTP_URL: 'smtp://reports%40acme.example:pw@127.0.0.1:1' },
      now: () => new Date(),
      cwd: '/',
    };
    expect(resolveConfig({}, sources).mailFrom).toBe('reports@acme.example');
    expect(resolveConfig({ mailFrom: 'team@acme.example' }, sources).mailFrom).toBe('team@acme.example');
  });
});

describe('orgreport hook', () => {
  it('records one event with recorded_at from the clock', async () => {
    const log = join(await mkdtemp(join(tmpdir(), 'orgreport-hook-')), 'hooks.jsonl');
    const io = memoryIo({ env: { ORGREPORT_HOOK_LOG: log }, now: '2026-11-02T10:00:00Z' });
    io.stdin.end('{"hook_event_name":"SessionEnd","session_id":"s9","cwd":"/repo","reason":"other"}');
    expect(await run(['hook', 'record'], io)).toBe(0);
    const line = JSON.parse((await readFile(log, 'utf8')).trim());
    expect(line).toEqual({
      hook_event_name: 'SessionEnd',
      session_id: 's9',
      cwd: '/repo',
      reason: 'other',
      recorded_at: '2026-11-02T10:00:00.000Z',
    });
  });

  it('exits 1 (never 2, which may block an agent) on a bad event, and writes nothing', async () => {
    const log = join(await mkdtemp(join(tmpdir(), 'orgreport-hook-')), 'hooks.jsonl');
    const io = memoryIo({ env: { ORGREPORT_HOOK_LOG: log } });
    io.stdin.end('{"hook_event_name":"Stop"}');
    expect(await run(['hook', 'record'], io)).toBe(1);
    expect(io.err()).toContain('hook event.session_id (missing) is invalid');
    await expect(readFile(log, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('exits 1, not 2, on a mistyped hook record command line too; other commands keep 2', async () => {
    const io = memoryIo({ env: { ORGREPORT_HOOK_LOG: '/tmp/never-written.jsonl' } });
    expect(await run(['hook', 'record', '--bogus'], io)).toBe(1);
    expect(io.err()).toContain("unknown option '--bogus'");
    expect(await run(['hook', 'record', 'extra'], memoryIo())).toBe(1);
    expect(await run(['hook', 'config', '--bogus'], memoryIo())).toBe(2);
  });

  it('does not hang when stdin never ends', async () => {
    const io = memoryIo({ env: { ORGREPORT_HOOK_LOG: '/tmp/never-written.jsonl' } });
    io.stdin.write('{');
    expect(await run(['hook', 'record', '--timeout', '100'], io)).toBe(1);
    expect(io.err()).toMatch(/within 100 ms/);
  });

  it('prints a hooks configuration for the four events that records to the configured log', async () => {
    const io = memoryIo({ env: { ORGREPORT_HOOK_LOG: '/var/log/agent hooks.jsonl' } });
    expect(await run(['hook', 'config', '--command', 'npx orgreport'], io)).toBe(0);
    const config = JSON.parse(io.out());
    expect(Object.keys(config)).toEqual(['Notification', 'Stop', 'SubagentStop', 'SessionEnd']);
    expect(config.Notification[0].hooks[0].command).toBe(
      "npx orgreport hook record --hook-log '/var/log/agent hooks.jsonl'",
    );
  });
});

describe('orgreport hook record with a bad setting', () => {
  it('still exits 1, not 2', async () => {
    const io = memoryIo({ env: { ORGREPORT_HOOK_LOG: '/tmp/x.jsonl', ORGREPORT_LOG_LEVEL: 'loud' } });
    io.stdin.end('{"hook_event_name":"Stop","session_id":"s","cwd":"/"}');
    expect(await run(['hook', 'record'], io)).toBe(1);
    expect(io.err()).toMatch(/ORGREPORT_LOG_LEVEL/);
  });
});
