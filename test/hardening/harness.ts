/**
 * Helpers of the hardening suite: reading every output back (workbook cells with their types,
 * snapshot files including the gzipped JSON lines, HTML text), comparing runs, and scanning for
 * secrets. The CLI runs in-process through `cli()` of the e2e helpers.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One workbook cell as openpyxl reads it: `t` is its type (`s` text, `n` number, `f` formula, `b`, `d`). */
export interface CellInfo {
  sheet: string;
  ref: string;
  t: string;
  v: unknown;
}

/** Every non-empty cell of a workbook with its stored type (formulas as formulas, not results). */
export function workbookCells(file: string): CellInfo[] {
  const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], data_only=False)
out = []
for ws in wb.worksheets:
    for row in ws.iter_rows():
        for c in row:
            if c.value is None: continue
            v = c.value
            if isinstance(v, (datetime.date, datetime.datetime)): v = v.isoformat()
            elif not isinstance(v, (str, int, float, bool)): v = str(v)
            out.append({"sheet": ws.title, "ref": c.coordinate, "t": c.data_type, "v": v})
print(json.dumps(out))
`;
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script, file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  );
}

/** Every file under a directory (relative paths), recursively. */
export function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => relative(dir, join(dir, f)))
    .sort();
}

/** sha256 of every file under a directory, by relative path. */
export function treeHashes(dir: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

/** The text of a file, gunzipped when it ends in `.gz`. */
export function fileText(file: string): string {
  const bytes = readFileSync(file);
  return file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** HTML text with character references decoded (enough for checking that escaped text survives). */
export function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)),
      );
    return NAMED_ENTITIES[e.toLowerCase()] ?? m;
  });
}

/**
 * A JSON value with run-specific parts made equal: the emulator's address (each listens on its own
 * port) and the salted fingerprints of redacted secrets (the salt is new in every run, by design).
 */
export function comparable<T>(value: T, emulatorUrl: string): T {
  const text = JSON.stringify(value)
    .split(emulatorUrl)
    .join('http://emulator.test')
    .replace(/\[redacted:[0-9a-f]{8}\]/g, '[redacted:*]');
  return JSON.parse(text) as T;
}

/** Which of `needles` occur in `text` (each reported with where it was found). */
export function findSecrets(text: string, needles: readonly string[], where: string): string[] {
  return needles.filter((n) => n && text.includes(n)).map((n) => `${where}: ${n.slice(0, 12)}...`);
}
