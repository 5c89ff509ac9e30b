import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportModel } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { composeMail } from './send.ts';

/** The parts of a model the mail reads. */
function model(name: string): ReportModel {
  return {
    organization: { id: 'org-1', name },
    period: {
      month: '2026-10',
      start: '2026-10-01',
      end: '2026-10-31',
      days: 31,
      partial: false,
      clampedStart: false,
      endsEarly: false,
    },
    comparison: {
      month: '2026-09',
      start: '2026-09-01',
      end: '2026-09-30',
      days: 30,
      partial: false,
      clampedStart: false,
      endsEarly: false,
    },
    comparisonHasData: true,
    partial: false,
    generatedAt: '2026-11-22T00:00:00.000Z',
    figures: [
      {
        id: 'credits',
        label: 'Credits consumed',
        value: 1234567,
        previous: 1000000,
        change: 0.234567,
        unit: 'credits',
      },
      { id: 'active_users', label: 'Active users', value: 42, previous: null, change: null, unit: 'count' },
    ],
  } as unknown as ReportModel;
}

describe('composeMail', () => {
  it('fills subject and bodies from the built-in templates, with changes and attachments', async () => {
    const mail = await composeMail(model('Acme'), ['r.pdf', 'r.xlsx']);
    expect(mail.subject).toBe('Acme: AI coding-agent report for 2026-10');
    expect(mail.text).toContain('- Credits consumed: 1,234,567 (+23.5%)'); // the PDF's formatter
    expect(mail.text).toContain('- Active users: 42\n');
    expect(mail.text).toContain('Attached: r.pdf, r.xlsx.');
  });

  it('escapes data in the HTML body and keeps the subject on one line', async () => {
    const mail = await composeMail(model('<script>x</script>\nBcc: evil@example.com'), []);
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.subject).not.toMatch(/\n/);
  });

  it('takes a template of the user template directory over the built-in one, file by file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orgreport-mail-'));
    mkdirSync(join(dir, 'mail'));
    writeFileSync(join(dir, 'mail', 'subject.hbs'), 'Usage {{month}} for {{organization}}');
    const mail = await composeMail(model('Acme'), [], { templates: dir });
    expect(mail.subject).toBe('Usage 2026-10 for Acme');
    expect(mail.text).toContain('Credits consumed'); // body still built in
  });

  it('names a template that does not compile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orgreport-mail-'));
    mkdirSync(join(dir, 'mail'));
    writeFileSync(join(dir, 'mail', 'body.txt.hbs'), '{{#each headline}}');
    await expect(composeMail(model('Acme'), [], { templates: dir })).rejects.toThrow(
      /mail template body\.txt\.hbs/,
    );
  });
});
