/**
 * Issue 16, a workbook that stacks: the demo's workbooks of three months, read back by an
 * independent reader (openpyxl) through their Excel tables and stacked as finance does, pivot by
 * `month` to each month's own Summary totals and JSON model figures.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers.ts';

const MONTHS = ['2026-08', '2026-09', '2026-10'];

/** Stacks the tables of several workbooks by table name (rows as objects), with each workbook's Summary and empty-string cells. */
const STACK = `
import json, sys, openpyxl
from openpyxl.utils.cell import range_boundaries

def plain(v):
    return v.isoformat() if hasattr(v, "isoformat") else v

out = {"tables": {}, "summaries": [], "emptyStrings": 0, "tableNames": []}
for path in sys.argv[1:]:
    wb = openpyxl.load_workbook(path, data_only=True)
    names = []
    for ws in wb.worksheets:
        out["emptyStrings"] += sum(1 for row in ws.iter_rows() for c in row if c.value == "")
        for name, ref in ws.tables.items():
            names.append(name)
            min_col, min_row, max_col, max_row = range_boundaries(ref)
            rows = list(ws.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col, values_only=True))
            records = [dict(zip(rows[0], map(plain, r))) for r in rows[1:] if any(v is not None for v in r)]
            if name == "tbl_summary":
                out["summaries"].append({r["id"]: r["value"] for r in records})
            else:
                out["tables"].setdefault(name, []).extend(records)
    out["tableNames"].append(names)
print(json.dumps(out))
`;

interface Stacked {
  tables: Record<string, Array<Record<string, unknown>>>;
  summaries: Array<Record<string, number | null>>;
  emptyStrings: number;
  tableNames: string[][];
}

interface Model {
  organization: { id: string };
  period: { month: string };
  figures: Array<{ id: string; value: number | null }>;
}

/** Sums of `fields` and row counts of `rows`, by month: the pivot. */
function pivot(rows: Array<Record<string, unknown>>, fields: string[]): Map<string, Record<string, number>> {
  const byMonth = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const month = String(row.month);
    const sums = byMonth.get(month) ?? { rows: 0, ...Object.fromEntries(fields.map((f) => [f, 0])) };
    sums.rows! += 1;
    for (const f of fields) sums[f]! += row[f] as number;
    byMonth.set(month, sums);
  }
  return byMonth;
}

const SUMMED = ['credits', 'tool_calls', 'sessions', 'messages'];

describe('the workbooks of three months stack into one pivot', () => {
  let stacked: Stacked;
  const models = new Map<string, Model>();

  beforeAll(async () => {
    const files: string[] = [];
    for (const month of MONTHS) {
      const out = tempDir();
      const run = await cli([
        'monthly',
        '--demo',
        '--month',
        month,
        '--formats',
        'xlsx,json',
        '--out',
        out,
        '-q',
      ]);
      expect(run.code, run.err).toBe(0);
      const base = join(
        out,
        readdirSync(out)
          .find((f) => f.endsWith('.xlsx'))!
          .replace(/\.xlsx$/, ''),
      );
      files.push(`${base}.xlsx`);
      models.set(month, JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Model);
    }
    stacked = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', STACK, ...files], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      }),
    ) as Stacked;
  }, 180_000);

  it('has the same tables in every month, and no cell holding an empty string', () => {
    expect(stacked.tableNames[0]).toEqual([
      'tbl_summary',
      'tbl_daily',
      'tbl_weekly',
      'tbl_users',
      'tbl_user_languages',
      'tbl_dormant_seats',
      'tbl_models',
      'tbl_tools',
      'tbl_mcp_spellings',
      'tbl_readiness',
      'tbl_criteria',
      // The demo organization comes with its people directory: teams and chargeback.
      'tbl_teams',
      'tbl_chargeback',
      'tbl_controls',
      'tbl_definitions',
      'tbl_data_quality',
      'tbl_data_quality_details',
    ]);
    for (const names of stacked.tableNames) expect(names).toEqual(stacked.tableNames[0]);
    expect(stacked.emptyStrings).toBe(0);
  });

  it('keys every stacked row by org_id and month', () => {
    const org = models.get('2026-10')!.organization.id;
    for (const [name, rows] of Object.entries(stacked.tables)) {
      expect(rows.length, name).toBeGreaterThan(0);
      for (const row of rows) {
        expect(Object.keys(row).slice(0, 2), name).toEqual(['org_id', 'month']);
        expect(row.org_id, name).toBe(org);
      }
      const months = new Set(rows.map((r) => r.month));
      if (name !== 'tbl_data_quality' && name !== 'tbl_data_quality_details') {
        expect([...months].sort(), name).toEqual(MONTHS);
      }
    }
  });

  it('pivots the stacked Daily and Users tables by month to each month’s Summary and JSON figures', () => {
    const daily = pivot(stacked.tables.tbl_daily!, SUMMED);
    const users = pivot(stacked.tables.tbl_users!, ['credits', 'tool_calls', 'sessions']);
    expect([...daily.keys()]).toEqual(MONTHS);
    MONTHS.forEach((month, i) => {
      const summary = stacked.summaries[i]!;
      const figures = new Map(models.get(month)!.figures.map((f) => [f.id, f.value]));
      expect(models.get(month)!.period.month).toBe(month);
      expect(daily.get(month)!.rows, month).toBe(month === '2026-09' ? 30 : 31);
      for (const id of SUMMED) {
        expect(daily.get(month)![id], `${month} ${id}`).toBe(summary[id]);
        expect(daily.get(month)![id], `${month} ${id}`).toBe(figures.get(id));
      }
      // One Users row per active user; their credits add up to the month's.
      expect(users.get(month)!.rows, month).toBe(figures.get('active_users'));
      expect(users.get(month)!.rows, month).toBe(summary.active_users);
      expect(users.get(month)!.credits, month).toBe(figures.get('credits'));
    });
    // The months differ, so the pivot would catch rows of one month labelled as another.
    expect(new Set(MONTHS.map((m) => daily.get(m)!.credits)).size).toBe(3);
  });
});
