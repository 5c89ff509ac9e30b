/**
 * The report a manager gets from `distribute --demo`: short (at most 8 pages for a team of about
 * 25), opening with the page they act on, people by name, and the same headline figures and actions
 * in the mail's text, so that a reader who never opens the PDF still has them. Read as its readers
 * read it: the PDF's text page by page and the mails a real SMTP server on loopback received.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportModel } from '@orgreport/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

/** The text of one page of a PDF (poppler), whitespace collapsed. */
const pageText = (file: string, page: number) =>
  execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-'], {
    encoding: 'utf8',
  }).replace(/\s+/g, ' ');
const pages = (file: string) =>
  Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/i;

let smtp: TestSmtp;
let out: string;
let models: ReportModel[];

beforeAll(async () => {
  smtp = await startSmtp();
  out = tempDir('orgreport-short-');
  const run = await cli(['distribute', '--demo', '--formats', 'pdf', '--out', out], {
    env: { ORGREPORT_SMTP_URL: smtp.url, ORGREPORT_MAIL_FROM: 'reports@acme.test' },
  });
  expect(run.code, run.err).toBe(0);
  // The models of the same reports, for what the documents must say.
  const json = join(out, 'models');
  const again = await cli([
    'distribute',
    '--demo',
    '--formats',
    'json',
    '--out',
    json,
    '--dry-run',
    '--json',
  ]);
  expect(again.code, again.err).toBe(0);
  const planned = JSON.parse(again.out) as { deliveries: Array<{ scope: string }> };
  models = [];
  for (const scope of planned.deliveries.map((d) => d.scope).slice(0, 3)) {
    const dirOf = join(json, scope.replace(/[^a-z0-9]+/gi, '-'));
    const made = await cli(['monthly', '--demo', '--scope', scope, '--formats', 'json', '--out', dirOf]);
    expect(made.code, made.err).toBe(0);
    const file = readdirSync(dirOf).find((f) => f.endsWith('.json'))!;
    models.push(JSON.parse(readFileSync(join(dirOf, file), 'utf8')));
  }
}, 300_000);
afterAll(async () => {
  await smtp?.close();
});

describe("a manager's short report", () => {
  it('is at most 8 pages, opens with what to do, and names people by name', () => {
    const pdfs = readdirSync(out).filter((f) => f.endsWith('.pdf'));
    expect(pdfs.length).toBeGreaterThan(10);
    for (const pdf of pdfs) {
      const file = join(out, pdf);
      expect(pages(file), pdf).toBeLessThanOrEqual(8);
      const first = pageText(file, 1);
      expect(first, pdf).toContain('What to do this month');
      expect(first, pdf).toMatch(/’s organization/);
      // People are named by name, not by address, on the page a reader acts on.
      expect(first.replace(/generated .* by orgreport/, ''), pdf).not.toMatch(EMAIL);
      const second = pageText(file, 2);
      expect(second, pdf).toContain('People');
      expect(second, pdf).not.toMatch(EMAIL);
    }
  });

  it('never says every seat was used when one had no activity', () => {
    const pdfs = readdirSync(out).filter((f) => f.endsWith('.pdf'));
    const idle = pdfs.filter((pdf) => /\d+ seats? of \d+ had no activity/.test(pageText(join(out, pdf), 1)));
    expect(idle.length).toBeGreaterThan(0);
    for (const pdf of idle) expect(pageText(join(out, pdf), 1), pdf).not.toContain('every seat was used');
  });

  it('says what to do with every idle seat, which repositories fail the weakest criterion, and names clients in words', () => {
    const pdfs = readdirSync(out).filter((f) => f.endsWith('.pdf'));
    let seats = 0;
    let readiness = 0;
    for (const pdf of pdfs) {
      const file = join(out, pdf);
      const text = Array.from({ length: pages(file) }, (_, i) => pageText(file, i + 1)).join(' ');
      // A dormant seat's row: created, last active, last sign-in, then what to do with it.
      const day = '(?:\\d{4}-\\d{2}-\\d{2}|none)';
      const rows = text.match(new RegExp(`${day} ${day} ${day}(?= )`, 'g')) ?? [];
      const done = text.match(new RegExp(`${day} ${day} ${day} (?:reclaim|ask)\\b`, 'g')) ?? [];
      expect(done.length, pdf).toBe(rows.length);
      seats += rows.length;
      if (text.includes('Work on "')) {
        expect(text, pdf).toMatch(/Work on "[^"]+"\. .*?Not passed in acme-robotics\/[a-z-]+/);
        readiness++;
      }
      expect(text, pdf).not.toMatch(/terminal-ui|non-interactive-cli/);
    }
    expect(seats).toBeGreaterThan(0);
    expect(readiness).toBeGreaterThan(0);
  });

  it("names who counts in two teams, and the teams' Active column then adds up to the scope's active users and them", () => {
    let named = 0;
    for (const pdf of readdirSync(out).filter((f) => f.endsWith('.pdf'))) {
      const file = join(out, pdf);
      const text = Array.from({ length: pages(file) }, (_, i) => pageText(file, i + 1)).join(' ');
      const sentence =
        /(\S+ \S+) \(([^)]+)\): moved team this month .*?Active column adds up to ([\d,]+) for ([\d,]+) people/.exec(
          text,
        );
      if (!sentence) continue;
      named++;
      // The people it counts are the scope's active users, as the People page states them.
      expect(text, pdf).toContain(`; ${sentence[4]} used the agent this month`);
      expect(sentence[2]!.split(', ').length, pdf).toBeGreaterThan(1);
    }
    expect(named).toBeGreaterThan(0);
  });

  it("states the scope's own figures and its people by their names", () => {
    for (const model of models) {
      const label = model.scope!.label;
      const pdf = readdirSync(out).find((f) => f.includes(model.scope!.slug) && f.endsWith('.pdf'))!;
      const first = pageText(join(out, pdf), 1);
      const credits = model.figures.find((f) => f.id === 'credits')!.value!;
      expect(first, label).toContain(credits.toLocaleString('en-US'));
      const top = model.users.find((u) => u.active_days > 0 && u.name)!;
      expect(pageText(join(out, pdf), 2), label).toContain(top.name!);
    }
  });

  it('goes with a mail whose text carries the headline figures and the actions', () => {
    expect(smtp.received.length).toBeGreaterThan(10);
    for (const model of models) {
      const manager = model.scope!.manager!.email;
      const mail = smtp.received.find((m) => m.recipients.map((r) => r.toLowerCase()).includes(manager));
      expect(
        mail,
        `${manager} among ${smtp.received.map((m) => m.recipients.join(',')).join(' ')}`,
      ).toBeDefined();
      const text = mail!.parsed.text ?? '';
      const credits = model.figures.find((f) => f.id === 'credits')!.value!;
      expect(text, manager).toContain(`Credits consumed: ${credits.toLocaleString('en-US')}`);
      expect(text, manager).toContain('What to do this month:');
      const brief = model.sections?.['brief'] as { actions: Array<{ kind: string }> };
      expect(brief.actions.length, manager).toBeGreaterThan(0);
      const titles = (text.match(/^\d+\. .+$/gm) ?? []).length;
      expect(titles, manager).toBe(brief.actions.length);
      expect(mail!.parsed.html || '', manager).toContain('What to do this month');
    }
  });
});

describe("a groups-only report's guide", () => {
  it('lists what the report held back, as its model recorded it, and a report that held nothing back lists nothing', async () => {
    const dir = tempDir('orgreport-short-groups-');
    const scope = 'cost-center:CC-400 Operations';
    const run = await cli([
      'monthly',
      '--demo',
      '--scope',
      scope,
      '--person-rows',
      'none',
      '--formats',
      'pdf,json',
      '--out',
      dir,
    ]);
    expect(run.code, run.err).toBe(0);
    const pdf = join(dir, readdirSync(dir).find((f) => f.endsWith('.pdf'))!);
    const model = JSON.parse(
      readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.json'))!), 'utf8'),
    ) as ReportModel;
    const held = model.privacy!.suppressed;
    // Both kinds: groups held back together with enough people to be counted, and a group under the
    // minimum, whose count is not given (it would tell what holding it back hides).
    expect(held.some((h) => h.people === null)).toBe(true);
    expect(held.some((h) => h.people !== null && h.people >= model.privacy!.minGroupSize)).toBe(true);
    const guide = pageText(pdf, pages(pdf));
    expect(guide).toContain('How to read this report');
    // The definitions it points to are not in this PDF: it says so, and where to get them.
    expect(guide).toMatch(
      /This PDF leaves them out to stay short: if you were sent the PDF alone, ask its\s+sender/,
    );
    const listed =
      /Held back in this report’s figures, as groups too small to show \(some only in its HTML, workbook or JSON\): (.*?)\. Every figure/.exec(
        guide,
      );
    expect(listed, guide).not.toBeNull();
    expect(listed![1]).toBe(
      held
        .map((h) => {
          const min = model.privacy!.minGroupSize;
          const people =
            h.people === null
              ? `fewer than ${min} people`
              : `${h.people} ${h.people === 1 ? 'person' : 'people'}`;
          return `${h.where} (${h.group}, ${people})`;
        })
        .join('; '),
    );
    // The managers' reports of distribute show every person of their scope: nothing held back.
    for (const file of readdirSync(out).filter((f) => f.endsWith('.pdf'))) {
      const path = join(out, file);
      expect(pageText(path, pages(path)), file).not.toContain('Held back in this report');
    }
  }, 120_000);
});
