/**
 * The rest of the CLI end to end: the limits template round trip through a spreadsheet, the hook log
 * section of the report, the control history window of the snapshot, template directories and logs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { readSnapshot } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, readWorkbook, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ seed: 9, users: 20 });
});
afterAll(() => emulator?.close());

describe('orgreport limits template and apply from a spreadsheet', () => {
  it('lists every user with the month credits; the filled workbook applies', async () => {
    const dir = tempDir();
    const file = join(dir, 'limits.xlsx');
    const made = await cli(['limits', 'template', '--month', '2026-10', '--out', file], {
      env: envFor(emulator, 'owner'),
    });
    expect(made.code, made.err).toBe(0);
    const sheet = Object.values(readWorkbook(file))[0]!;
    const header = (sheet[0] as string[]).map((h) => String(h).toLowerCase());
    const emailCol = header.indexOf('email');
    const creditsCol = header.findIndex((h) => h.includes('credits'));
    const limitCol = header.indexOf('limit');
    expect([emailCol, creditsCol, limitCol].every((i) => i >= 0)).toBe(true);
    expect(sheet).toHaveLength(21); // header + 20 users

    // The template's credits are the month's /users credits of each user.
    const snapshotDir = join(dir, 'snap');
    await cli(['fetch', '--month', '2026-10', '--snapshot', snapshotDir], { env: envFor(emulator, 'owner') });
    const snapshot = await readSnapshot(snapshotDir);
    const byEmail = new Map<string, number>();
    snapshot.userDays.user_email.forEach((email, i) => {
      const date = snapshot.userDays.date[i]!;
      if (email && date >= '2026-10-01')
        byEmail.set(email, (byEmail.get(email) ?? 0) + snapshot.userDays.billable_tokens[i]!);
    });
    for (const row of sheet.slice(1)) {
      expect(row[creditsCol], String(row[emailCol])).toBe(byEmail.get(String(row[emailCol])) ?? 0);
      expect(row[limitCol] ?? null).toBeNull();
    }

    // Finance fills the limit column (openpyxl, like a spreadsheet program), one value is wrong.
    const script = `
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1]); ws = wb.worksheets[0]
col = [c.value for c in ws[1]].index('limit') + 1
for r in range(2, ws.max_row + 1): ws.cell(row=r, column=col, value=500 + r)
ws.cell(row=5, column=col, value='five hundred')
wb.save(sys.argv[1])`;
    execFileSync('/usr/bin/python3', ['-c', script, file]);
    const applied = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });
    expect(applied.code).toBe(2);
    expect(applied.out).toMatch(/failed {3}row 5 \S+: limit "five hundred" is not a non-negative number/);
    expect(applied.out).toContain('19 set, 0 left as they are (empty limit), 1 failed');
    const second = String(sheet[1]![emailCol]).toLowerCase();
    expect(emulator.creditLimits.get(second)).toBe(502);
  });
});

describe('hook events in the report', () => {
  it('keeps the events of the fetched range in the snapshot and summarizes them in the model', async () => {
    const dir = tempDir();
    const log = join(dir, 'hooks.jsonl');
    const events = [
      ['Stop', 's1', '2026-10-03T10:00:00Z'],
      ['SessionEnd', 's1', '2026-10-03T10:05:00Z'],
      ['Notification', 's2', '2026-10-20T08:00:00Z'],
      ['Stop', 's3', '2026-08-01T08:00:00Z'], // before the comparison month: not kept
    ];
    writeFileSync(
      log,
      events
        .map(([name, session, at]) =>
          JSON.stringify({
            hook_event_name: name,
            session_id: session,
            cwd: '/w',
            reason: name === 'SessionEnd' ? 'other' : undefined,
            recorded_at: at,
          }),
        )
        .join('\n'),
    );
    const result = await cli(['monthly', '--formats', 'json', '--out', dir, '--hook-log', log], {
      env: envFor(emulator),
    });
    expect(result.code, result.err).toBe(0);
    const snapshot = await readSnapshot(join(dir, 'snapshot'));
    expect(snapshot.hookEvents?.map((e) => e.session_id)).toEqual(['s1', 's1', 's2']);
    const model = JSON.parse(
      readFileSync(
        join(dir, `orgreport-${emulator.organization.domain.replace(/[^a-z0-9]+/g, '-')}-2026-10.json`),
        'utf8',
      ),
    );
    expect(model.hookEvents).toMatchObject({ total: 3, sessions: 2 });
  });
});

describe('the snapshot control history', () => {
  it('holds the revisions of the range plus the one in force before it, and nothing later', async () => {
    const dir = tempDir();
    expect((await cli(['fetch', '--out', dir], { env: envFor(emulator, 'owner') })).code).toBe(0);
    const snapshot = await readSnapshot(join(dir, 'snapshot'));
    const all = (await cli(['api', 'controls', 'history', '--all'], { env: envFor(emulator, 'owner') })).out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { revision: number; updatedAt: string });
    const day = (c: { updatedAt: string }) => c.updatedAt.slice(0, 10);
    const inRange = all
      .filter((c) => day(c) >= '2026-09-01' && day(c) <= '2026-10-31')
      .map((c) => c.revision);
    const baseline = all.find((c) => day(c) < '2026-09-01')?.revision;
    expect(snapshot.controls.map((c) => c.revision)).toEqual([
      ...inRange,
      ...(baseline === undefined ? [] : [baseline]),
    ]);
    expect(inRange.length).toBeGreaterThan(0);
  });
});

describe('templates and logs', () => {
  it('refuses an unreadable template directory before fetching (exit 2)', async () => {
    const result = await cli(['monthly', '--out', tempDir(), '--templates', '/nonexistent/templates'], {
      env: envFor(emulator),
    });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--templates \/nonexistent\/templates: not a readable directory/);
  });

  it('warns, in the log and the summary, when the PDF page tried an outside request', async () => {
    const dir = tempDir();
    const fetched = await cli(['fetch', '--month', '2026-10', '--snapshot', join(dir, 'snap')], {
      env: envFor(emulator),
    });
    expect(fetched.code, fetched.err).toBe(0);
    // A layout override whose image lives outside the report: the renderer blocks it.
    mkdirSync(join(dir, 'tpl'));
    writeFileSync(
      join(dir, 'tpl', 'layout.hbs'),
      '<html><body><h1>{{organization.name}}</h1><img src="http://127.0.0.1:9/logo.png"></body></html>',
    );
    const args = [
      'render',
      '--snapshot',
      join(dir, 'snap'),
      '--formats',
      'pdf',
      '--templates',
      join(dir, 'tpl'),
    ];
    const result = await cli([...args, '--out', join(dir, 'out')]);
    expect(result.code, result.err).toBe(0);
    const warning = 'the PDF page tried 1 outside request(s), all blocked';
    expect(result.err).toContain(`warning: ${warning}`);
    expect(result.err).toContain('"http://127.0.0.1:9/logo.png"');
    expect(result.out).toContain(`\n  warning: ${warning}`);
    expect(result.out).toMatch(/1 output\(s\), 1 warning\(s\)/);
  });

  it('logs requests at debug level without the API key', async () => {
    const dir = tempDir();
    const result = await cli(['fetch', '--out', dir, '--verbose'], { env: envFor(emulator) });
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/debug: /);
    expect(result.err).not.toContain(emulator.keys.manager);
  });
});
