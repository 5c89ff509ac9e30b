/**
 * The whole monthly report through the CLI against the emulator: every output exists and they agree
 * (the PDF's text holds the workbook's headline figures, the JSON model holds the same values),
 * `render --snapshot` reproduces the same workbook offline, and the mail arrives at a real SMTP
 * server with the PDF (and the workbook on request) attached, byte for byte.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, pdfText, readWorkbook, sheetObjects, smallOrg, tempDir } from './helpers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

let emulator: RunningEmulator;
let smtp: TestSmtp;
let out: string;
let base: string;
let monthly: Awaited<ReturnType<typeof cli>>;

beforeAll(async () => {
  [emulator, smtp] = await Promise.all([smallOrg({ seed: 3, users: 25 }), startSmtp()]);
  out = tempDir();
  monthly = await cli(
    [
      'monthly',
      '--out',
      out,
      '--org-name',
      'Test Org',
      '--email',
      'cto@example.com,finance@example.com',
      '--attach-xlsx',
    ],
    {
      env: { ...envFor(emulator), ORGREPORT_SMTP_URL: smtp.url, ORGREPORT_MAIL_FROM: 'reports@example.com' },
    },
  );
  base = join(out, 'orgreport-test-org-2026-10');
}, 120_000);
afterAll(async () => {
  await Promise.all([emulator?.close(), smtp?.close()]);
});

/** The Summary sheet's rows by figure id. */
function summaryById(file: string): Map<string, Record<string, unknown>> {
  return new Map(sheetObjects(readWorkbook(file).Summary).map((row) => [String(row.id), row]));
}

describe('orgreport monthly, all formats', () => {
  it('writes the four formats and the snapshot, and prints a summary', () => {
    expect(monthly.code, monthly.err).toBe(0);
    expect(readdirSync(out).sort()).toEqual(
      ['pdf', 'xlsx', 'html', 'json']
        .map((ext) => `orgreport-test-org-2026-10.${ext}`)
        // The ledger of the run's deliveries (the mails), beside the report when there is no store.
        .concat('snapshot', 'deliveries.jsonl')
        .sort(),
    );
    expect(readFileSync(`${base}.pdf`).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readFileSync(`${base}.xlsx`).subarray(0, 2).toString()).toBe('PK');
    expect(readFileSync(`${base}.html`, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(monthly.out).toMatch(
      /done in [\d.]+ s: 5 output\(s\), delivered to cto@example\.com, finance@example\.com/,
    );
  });

  it('the workbook, the JSON model and the PDF agree on the headline figures', () => {
    const model = JSON.parse(readFileSync(`${base}.json`, 'utf8'));
    const summary = summaryById(`${base}.xlsx`);
    const text = pdfText(`${base}.pdf`);
    for (const id of ['credits', 'active_users', 'seats', 'tool_calls', 'sessions']) {
      const figure = model.figures.find((f: { id: string }) => f.id === id);
      const cell = summary.get(id);
      expect(cell, id).toBeDefined();
      expect(cell!.value, id).toBe(figure.value);
      // Whole numbers as the report prints them (thousands separated), found in the PDF's text.
      const printed = Number(figure.value).toLocaleString('en-US');
      expect(text, `${id} = ${printed}`).toContain(printed);
    }
    expect(text).toContain('Test Org');
    expect(text).toContain('2026-10');
  });

  it('render --snapshot reproduces the same workbook values offline', async () => {
    const offline = tempDir();
    const before = emulator.requestLog.length;
    const rendered = await cli(
      ['render', '--snapshot', join(out, 'snapshot'), '--out', offline, '--formats', 'xlsx,json'],
      {
        env: {},
      },
    );
    expect(rendered.code, rendered.err).toBe(0);
    expect(emulator.requestLog.length).toBe(before);
    const again = join(offline, 'orgreport-test-org-2026-10');
    expect(readWorkbook(`${again}.xlsx`)).toEqual(readWorkbook(`${base}.xlsx`));
    expect(JSON.parse(readFileSync(`${again}.json`, 'utf8'))).toEqual(
      JSON.parse(readFileSync(`${base}.json`, 'utf8')),
    );
  });

  it('mails the report to each recipient with the PDF and the workbook attached, byte for byte', () => {
    // One mail per recipient, each a delivery of its own in the ledger.
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received.flatMap((m) => m.recipients).sort()).toEqual([
      'cto@example.com',
      'finance@example.com',
    ]);
    const ids = smtp.received.map((m) => m.parsed.messageId);
    expect(new Set(ids).size).toBe(2);
    const ledger = readFileSync(join(out, 'deliveries.jsonl'), 'utf8');
    for (const id of ids) expect(ledger).toContain(id!);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe('reports@example.com');
    expect(mail.parsed.subject).toBe('Test Org: AI coding-agent report for 2026-10');
    expect(mail.parsed.text).toMatch(/Credits consumed: [\d,]+/);
    const attachments = new Map(mail.parsed.attachments.map((a) => [a.filename, a.content]));
    expect([...attachments.keys()].sort()).toEqual([
      'orgreport-test-org-2026-10.pdf',
      'orgreport-test-org-2026-10.xlsx',
    ]);
    expect(attachments.get('orgreport-test-org-2026-10.pdf')!.equals(readFileSync(`${base}.pdf`))).toBe(true);
    expect(attachments.get('orgreport-test-org-2026-10.xlsx')!.equals(readFileSync(`${base}.xlsx`))).toBe(
      true,
    );
  });

  it('an unreachable SMTP server is exit 1 with a message naming it, after the files are written', async () => {
    const dir = tempDir();
    const result = await cli(['monthly', '--out', dir, '--formats', 'json', '--email', 'cto@example.com'], {
      env: {
        ...envFor(emulator),
        ORGREPORT_SMTP_URL: 'smtp://127.0.0.1:9',
        ORGREPORT_MAIL_FROM: 'reports@example.com',
      },
    });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/sending to cto@example\.com through 127\.0\.0\.1:9 failed/);
    expect(result.err).toMatch(/orgreport: the delivery failed; run again to retry/);
    // The report was written before the delivery failed.
    expect(readdirSync(dir).some((f) => f.endsWith('.json'))).toBe(true);
  });
});
