/** Shared helpers of the end-to-end tests: temporary folders, an emulator per suite, readers of the outputs. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@orgreport/cli';
import { type MemoryIo, memoryIo } from '@orgreport/cli/testing';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '@orgreport/emulator';

/** The emulated today of every suite: October 2026 is the last complete month. */
export const TODAY = '2026-11-22';

/** A fresh temporary directory. */
export function tempDir(prefix = 'orgreport-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Starts a small emulated organization (callers close it in afterAll). */
export function smallOrg(options: Partial<EmulatorOptions> = {}): Promise<RunningEmulator> {
  return startEmulator({ seed: 7, users: 30, repos: 3, today: TODAY, ...options });
}

/** The environment that points the CLI at an emulator with the key of `role`. */
export function envFor(
  emulator: RunningEmulator,
  role: 'owner' | 'manager' | 'member' = 'manager',
): Record<string, string> {
  return {
    ORGREPORT_BASE_URL: emulator.baseUrl,
    ORGREPORT_APP_URL: emulator.appUrl,
    ORGREPORT_API_KEY: emulator.keys[role],
  };
}

/** Runs the CLI in-process and returns its exit code and captured output. */
export async function cli(
  argv: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number; out: string; err: string; io: MemoryIo }> {
  const io = memoryIo({ env: options.env, now: `${TODAY}T09:00:00Z` });
  if (options.stdin !== undefined) io.stdin.end(options.stdin);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err(), io };
}

/** The text of a PDF (poppler's pdftotext), whitespace collapsed. */
export function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** Every sheet of a workbook as rows of cell values (formulas as their stored results), read by an independent reader (openpyxl). */
export function readWorkbook(file: string): Record<string, unknown[][]> {
  const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], data_only=True)
def cell(v):
    if isinstance(v, (datetime.date, datetime.datetime)): return v.isoformat()[:10]
    return v
print(json.dumps({ws.title: [[cell(c) for c in row] for row in ws.iter_rows(values_only=True)] for ws in wb.worksheets}))
`;
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script, file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  );
}

/** A sheet's data rows as objects keyed by its header row. */
export function sheetObjects(sheet: unknown[][] | undefined): Array<Record<string, unknown>> {
  if (!sheet || sheet.length === 0) return [];
  const [header, ...rows] = sheet;
  return rows.map((row) => Object.fromEntries((header as string[]).map((h, i) => [h, row[i]])));
}

/** Every text a document holds: a PDF's text and metadata, a workbook's every XML part, or the file as it is. */
export function documentText(file: string): string {
  if (file.endsWith('.pdf'))
    return `${pdfText(file)}\n${execFileSync('pdfinfo', [file], { encoding: 'utf8' })}`;
  if (file.endsWith('.xlsx')) {
    const script =
      'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint("\\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist()))';
    return execFileSync('/usr/bin/python3', ['-c', script, file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  }
  return readFileSync(file, 'utf8');
}
