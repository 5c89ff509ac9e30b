/**
 * The workbook's formulas recalculated by another spreadsheet program: LibreOffice (Debian's
 * libreoffice-calc-nogui, headless) opens the workbook with "recalculate on load: always" and saves
 * it; openpyxl then reads every formula's result as LibreOffice computed it, against the result the
 * writer cached. A copy with one Daily cell changed in its XML shows that LibreOffice did recalculate.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { writeWorkbook } from './workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-recalc-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** LibreOffice's setting: recalculate OOXML files on load, always (0), instead of trusting their cached results. */
const RECALC_ALWAYS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;

/** Copies argv[1] to argv[2] with the number in cell argv[4] of the part argv[3] raised by argv[5]. */
const TAMPER = `
import re, sys, zipfile
src, dst, part, ref, delta = sys.argv[1:]
with zipfile.ZipFile(src) as zi, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zo:
    for item in zi.infolist():
        data = zi.read(item.filename)
        if item.filename == part:
            text = data.decode()
            m = re.search(r'<c r="%s"([^>]*)><v>([0-9.]+)</v>' % ref, text)
            text = text.replace(m.group(0), '<c r="%s"%s><v>%s</v>' % (ref, m.group(1), float(m.group(2)) + float(delta)), 1)
            data = text.encode()
        zo.writestr(item, data)
`;

/** Every formula cell of the first workbook: its formula, its cached result, and the second's result. */
const COMPARE = `
import json, sys, openpyxl
ours = openpyxl.load_workbook(sys.argv[1])
cached = openpyxl.load_workbook(sys.argv[1], data_only=True)
theirs = openpyxl.load_workbook(sys.argv[2], data_only=True)
out = []
for ws in ours.worksheets:
    for row in ws.iter_rows():
        for c in row:
            if c.data_type == "f":
                out.append({"sheet": ws.title, "cell": c.coordinate, "formula": c.value,
                            "cached": cached[ws.title][c.coordinate].value,
                            "recalculated": theirs[ws.title][c.coordinate].value})
print(json.dumps(out))
`;

interface FormulaCell {
  sheet: string;
  cell: string;
  formula: string;
  cached: number | string | null;
  recalculated: number | string | null;
}

/** Opens each of `files` in LibreOffice and saves it recalculated into `out`. */
function recalculate(files: string[], out: string): void {
  const profile = join(scratch, 'profile');
  mkdirSync(join(profile, 'user'), { recursive: true });
  writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), RECALC_ALWAYS);
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--convert-to',
      'xlsx',
      '--outdir',
      out,
      ...files,
    ],
    { stdio: 'pipe', timeout: 120_000 },
  );
}

function formulas(ours: string, theirs: string): FormulaCell[] {
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', COMPARE, ours, theirs], { encoding: 'utf8' }),
  ) as FormulaCell[];
}

/** An empty result: the writer caches none, LibreOffice an empty string (`IF(...,"",...)`). */
const blank = (v: unknown) => v === null || v === '';

describe('the workbook recalculated by LibreOffice', () => {
  const model = makeFixtureModel({ hostile: true });
  let cells: FormulaCell[];
  let tampered: FormulaCell[];

  beforeAll(async () => {
    const file = join(scratch, 'report.xlsx');
    await writeWorkbook(model, file, { pricePerCredit: 0.0001, currency: 'EUR' });
    // The Daily sheet is the fourth (Summary, Organizations, Trend, Daily): its F2 holds the first day's credits.
    const changed = join(scratch, 'changed.xlsx');
    execFileSync('/usr/bin/python3', ['-c', TAMPER, file, changed, 'xl/worksheets/sheet4.xml', 'F2', '1000']);
    const out = join(scratch, 'recalculated');
    recalculate([file, changed], out);
    cells = formulas(file, join(out, 'report.xlsx'));
    tampered = formulas(file, join(out, 'changed.xlsx'));
  }, 180_000);

  it('gives every formula the result the writer cached', () => {
    // The Summary's sums, mean and peak over Daily, its ratios, changes and the cost.
    expect(cells.length).toBeGreaterThan(20);
    expect(cells.map((c) => c.formula)).toContain('=ROUND(F2*0.0001,2)');
    for (const c of cells) {
      const where = `${c.sheet}!${c.cell} ${c.formula}`;
      if (blank(c.cached)) expect(blank(c.recalculated), where).toBe(true);
      else {
        expect(typeof c.recalculated, where).toBe('number');
        const tolerance = 1e-9 * Math.max(1, Math.abs(c.cached as number));
        expect(Math.abs((c.recalculated as number) - (c.cached as number)), where).toBeLessThanOrEqual(
          tolerance,
        );
      }
    }
  });

  it('recalculates rather than keeping the cached results: a Daily cell changed moves the sums over it', () => {
    const credits = tampered.find((c) => c.sheet === 'Summary' && c.formula.startsWith("=SUM('Daily'!F"))!;
    expect(credits.recalculated).toBe((credits.cached as number) + 1000);
    const cost = tampered.find((c) => c.formula === '=ROUND(F2*0.0001,2)')!;
    expect(cost.recalculated).toBeCloseTo((cost.cached as number) + 0.1, 9);
  });
});
