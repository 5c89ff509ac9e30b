/**
 * One full monthly report (PDF, workbook, HTML, JSON, snapshot) of a hostile organization, logs at
 * debug level, then two failing runs, checked for:
 * - hostile data: the HTML escapes it (no markup or script from the data, no evaluated
 *   Handlebars), the PDF page makes no request, the workbook holds it as inert text, and the
 *   report still renders;
 * - secrets: neither the custom models' apiKey values nor the client's API key appear in any
 *   output, snapshot file (gzipped JSON lines included), log line or error message.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTILE_LIST, HOSTILE_STRINGS, type RunningEmulator } from '@orgreport/emulator';
import { createPdfRenderer } from '@orgreport/render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, pdfText, smallOrg, tempDir } from '../helpers.ts';
import { type CellInfo, decodeEntities, fileText, findSecrets, listFiles, workbookCells } from './harness.ts';

const KEYS = {
  owner: 'hardening-owner-key-5521',
  manager: 'hardening-manager-key-0451',
  member: 'hardening-member-key-7730',
};
const BASE = 'orgreport-hostile-org-2026-10';

let emulator: RunningEmulator;
let out: string;
let run: Awaited<ReturnType<typeof cli>>;
let html: string;
let model: unknown;
let cells: CellInfo[];

/** Every string inside a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

beforeAll(async () => {
  emulator = await smallOrg({ seed: 3, users: 24, repos: 3, hostile: true, keys: KEYS });
  out = tempDir();
  run = await cli(['monthly', '--out', out, '--org-name', 'Hostile Org'], {
    env: { ...envFor(emulator), ORGREPORT_LOG_LEVEL: 'debug' },
  });
  if (run.code === 0) {
    html = readFileSync(join(out, `${BASE}.html`), 'utf8');
    model = JSON.parse(readFileSync(join(out, `${BASE}.json`), 'utf8'));
    cells = workbookCells(join(out, `${BASE}.xlsx`));
  }
}, 180_000);
afterAll(() => emulator?.close());

describe('hostile data', () => {
  it('the report still renders in every format', () => {
    expect(run.code, run.err).toBe(0);
    expect(listFiles(out)).toEqual(
      expect.arrayContaining(['pdf', 'xlsx', 'html', 'json'].map((ext) => `${BASE}.${ext}`)),
    );
    expect(pdfText(join(out, `${BASE}.pdf`))).toContain('Hostile Org');
  });

  it('the report carries hostile values (so the checks below check something)', () => {
    const values = strings(model);
    const carried = HOSTILE_LIST.filter((h) => h.length > 3 && values.some((v) => v.includes(h)));
    expect(carried).toEqual(
      expect.arrayContaining([
        HOSTILE_STRINGS.script,
        HOSTILE_STRINGS.hyperlinkFormula,
        HOSTILE_STRINGS.handlebars,
      ]),
    );
  });

  it('the HTML has no markup or script from the data', () => {
    const lower = html.toLowerCase();
    expect(lower).not.toContain('<script');
    expect(lower).not.toMatch(/<img[^>]*onerror/);
    expect(lower).not.toContain('<iframe');
    expect(lower).not.toContain('evil.example/x.css"');
    expect(lower).not.toMatch(/\son[a-z]+\s*=/); // no event-handler attributes at all
    expect(html).not.toContain(HOSTILE_STRINGS.script);
    // Escaped, the text is still there for the reader.
    expect(decodeEntities(html)).toContain(HOSTILE_STRINGS.script);
  });

  it('the HTML shows Handlebars syntax from the data literally, never evaluated', () => {
    const text = decodeEntities(html);
    expect(text).toContain('{{#each this}}{{this}}{{/each}}');
  });

  it('the HTML loads nothing from outside and the PDF page makes no request', async () => {
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    const renderer = await createPdfRenderer();
    try {
      const pdf = await renderer.render(html, { title: 't', author: 'a', headerText: 'h', footerText: 'f' });
      expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
      expect(renderer.blockedRequests).toEqual([]);
    } finally {
      await renderer.close();
    }
  }, 60_000);

  it('the workbook has no formula from the data and keeps formula-like text as text', () => {
    // The workbook's own formulas are arithmetic over its cells: known functions, no text but "".
    const ownFunctions = new Set([
      'SUM',
      'AVERAGE',
      'MAX',
      'MIN',
      'IF',
      'OR',
      'AND',
      'ABS',
      'IFERROR',
      'COUNT',
    ]);
    const formulas = cells.filter((c) => c.t === 'f');
    expect(formulas.length).toBeGreaterThan(0);
    for (const c of formulas) {
      const f = String(c.v);
      const where = `${c.sheet}!${c.ref} ${f.slice(0, 60)}`;
      const functions = [...f.matchAll(/([A-Za-z][A-Za-z0-9._]*)\(/g)].map((m) => m[1]!.toUpperCase());
      expect(
        functions.filter((fn) => !ownFunctions.has(fn)),
        where,
      ).toEqual([]);
      expect(f.replace(/""/g, ''), where).not.toMatch(/["|@]/);
    }
    const triggerLike = cells.filter(
      (c) => c.t !== 'f' && typeof c.v === 'string' && /^'?[=+\-@\t\r]/.test(c.v),
    );
    expect(triggerLike.length).toBeGreaterThan(0);
    for (const c of triggerLike) expect(c.t, `${c.sheet}!${c.ref} ${String(c.v).slice(0, 30)}`).toBe('s');
    const texts = cells.filter((c) => c.t === 's').map((c) => String(c.v));
    for (const h of [
      HOSTILE_STRINGS.hyperlinkFormula,
      HOSTILE_STRINGS.cmdFormula,
      HOSTILE_STRINGS.atFormula,
    ]) {
      expect(
        texts.some((t) => t.includes(h)),
        h,
      ).toBe(true);
    }
  });
});

describe('secrets', () => {
  let needles: string[];
  let failures: Array<Awaited<ReturnType<typeof cli>>>;

  beforeAll(async () => {
    const apiKeys = emulator.organization.controlHistory.flatMap((c) =>
      (c.settings.customModels ?? []).map((m) => m.apiKey ?? ''),
    );
    // The full keys, their random part alone (a partial leak counts too), the client's keys, and the
    // custom models' other secret-named value (`cloudHosted.cloudCredentialExport`).
    const credentials = emulator.organization.controlHistory.flatMap((c) =>
      (c.settings.customModels ?? []).map((m) => m.cloudHosted?.cloudCredentialExport ?? ''),
    );
    needles = [
      ...new Set([
        ...apiKeys,
        ...apiKeys.map((k) => k.replace(/^fake-key-/, '')),
        ...Object.values(KEYS),
        ...credentials,
      ]),
    ].filter((n) => n.length > 0);
    const broken = await smallOrg({
      seed: 3,
      users: 24,
      keys: KEYS,
      faults: { rate: 1, retryAfterSeconds: 1 },
    });
    try {
      failures = [
        await cli(['monthly', '--out', tempDir(), '--formats', 'json'], {
          env: { ...envFor(broken), ORGREPORT_LOG_LEVEL: 'debug' },
        }),
        await cli(['monthly', '--out', tempDir(), '--formats', 'json', '--verbose'], {
          env: { ...envFor(emulator), ORGREPORT_API_KEY: 'hardening-unknown-key-3141' },
        }),
      ];
    } finally {
      await broken.close();
    }
    needles.push('hardening-unknown-key-3141');
  }, 60_000);

  it('the organization has custom models with apiKey values to hide', () => {
    expect(needles.filter((n) => n.length === 24).length).toBeGreaterThan(0);
  });

  it('no output file or snapshot file holds a key', () => {
    const found: string[] = [];
    for (const file of listFiles(out)) {
      const path = join(out, file);
      if (file.endsWith('.xlsx') || file.endsWith('.pdf')) continue;
      found.push(...findSecrets(fileText(path), needles, file));
    }
    found.push(...findSecrets(pdfText(join(out, `${BASE}.pdf`)), needles, 'pdf text'));
    found.push(...findSecrets(JSON.stringify(cells.map((c) => c.v)), needles, 'workbook cells'));
    expect(listFiles(out).some((f) => f.endsWith('.gz'))).toBe(true);
    expect(found).toEqual([]);
  });

  it('no log line at debug level and no error message holds a key', () => {
    expect(run.err).toMatch(/debug/);
    const found = [
      ...findSecrets(run.out + run.err, needles, 'report run logs'),
      ...failures.flatMap((f, i) => findSecrets(f.out + f.err, needles, `failing run ${i} output`)),
    ];
    expect(failures.map((f) => f.code)).toEqual([1, 3]);
    expect(failures[0]!.err).toMatch(/debug/);
    expect(found).toEqual([]);
  });
});
