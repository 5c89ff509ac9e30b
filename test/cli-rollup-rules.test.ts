/**
 * The rollup holds every figure to its rule (FIGURE_RULES): two emulated organizations of different
 * seeds synced into one store through the CLI; for every figure id of the model, the rollup's value
 * is the sum of the organizations' own reports (summed figures), an independent recomputation over
 * the union of their rows in the store (recomputed figures: DuckDB SQL through `orgreport query`,
 * plus the readiness level rule written out here), or absent with its reason. The figure ids are
 * enumerated from the model, so a figure added later is held to its rule too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import {
  DEFAULT_LEVEL_MAPPING,
  describeCombineRule,
  FIGURE_IDS,
  FIGURE_RULES,
  type FigureId,
  type FigureRule,
  type ReportModel,
} from '@orgreport/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, smallOrg, tempDir } from './helpers.ts';

const MONTH = '2026-10';
const START = '2026-10-01';
const END = '2026-10-31';
const IN_MONTH = `date BETWEEN DATE '${START}' AND DATE '${END}'`;

let north: RunningEmulator;
let south: RunningEmulator;
let store: string;
let reports: { north: ReportModel; south: ReportModel };
let rollup: ReportModel;
let html: string;

async function run(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await cli(argv, { env });
  expect(result.code, `${argv.join(' ')}\n${result.err}`).toBe(0);
  return result.out;
}

/** Rows of a SQL query over the store, through the CLI (one JSON object per line). */
async function sql(query: string): Promise<Array<Record<string, unknown>>> {
  const out = await run(['query', '--store', store, '--format', 'json', '--max-rows', '100000', query]);
  return out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

beforeAll(async () => {
  [north, south] = await Promise.all([smallOrg({ seed: 61, users: 40 }), smallOrg({ seed: 62, users: 60 })]);
  const dir = tempDir();
  store = join(dir, 'store');
  const config = join(dir, 'orgreport.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      organizations: [
        { name: 'North', apiKeyEnv: 'KEY_NORTH', baseUrl: north.baseUrl, appUrl: north.appUrl },
        { name: 'South', apiKeyEnv: 'KEY_SOUTH', baseUrl: south.baseUrl, appUrl: south.appUrl },
      ],
    }),
  );
  const keys = { KEY_NORTH: north.keys.manager, KEY_SOUTH: south.keys.manager };
  await run(['sync', '--config', config, '--all-orgs', '--store', store, '--since', '2026-09-01'], keys);
  const own = join(dir, 'own');
  await run(
    [
      'monthly',
      '--config',
      config,
      '--all-orgs',
      '--store',
      store,
      '--month',
      MONTH,
      '--formats',
      'json',
      '--out',
      own,
    ],
    keys,
  );
  const read = (slug: string) =>
    JSON.parse(readFileSync(join(own, slug, `orgreport-${slug}-${MONTH}.json`), 'utf8'));
  reports = { north: read('north'), south: read('south') };
  const rolled = join(dir, 'rollup');
  const out = JSON.parse(
    await run([
      'rollup',
      '--store',
      store,
      '--month',
      MONTH,
      '--formats',
      'json,html',
      '--out',
      rolled,
      '--json',
    ]),
  );
  const output = (kind: string) => out.outputs.find((o: { kind: string }) => o.kind === kind).path as string;
  rollup = JSON.parse(readFileSync(output('json'), 'utf8'));
  html = readFileSync(output('html'), 'utf8');
}, 120_000);

afterAll(async () => {
  await Promise.all([north?.close(), south?.close()]);
});

const figure = (model: ReportModel, id: FigureId) => model.figures.find((f) => f.id === id);

/** The readiness level by the 80 % rule (docs/metrics.md), written out independently of the code under test. */
function levelOf(criteria: ReadonlyArray<{ criterion: string; score: number; pass: boolean }>): number {
  const mapping = DEFAULT_LEVEL_MAPPING as Readonly<Record<string, number>>;
  let level = 1;
  while (level < 5) {
    const at = criteria.filter((c) => mapping[c.criterion] === level);
    if (at.length === 0 || at.filter((c) => c.pass).length < 0.8 * at.length) break;
    level++;
  }
  return level;
}

/** Each recomputed figure over the union of the organizations' rows in the store, by id. */
async function recomputed(): Promise<Partial<Record<FigureId, number | null>>> {
  const [users] = await sql(
    `SELECT count(DISTINCT org_id || '/' || user_id) AS active FROM user_days
     WHERE ${IN_MONTH} AND (tool_calls > 0 OR messages > 0 OR sessions > 0)`,
  );
  // A day's DAU adds up across organizations (their accounts are their own); then the mean and peak.
  const [dau] = await sql(
    `WITH d AS (SELECT date, sum(daily_active_users) AS dau FROM activity_daily WHERE ${IN_MONTH} GROUP BY date)
     SELECT avg(dau) AS avg, max(dau) AS peak FROM d`,
  );
  const [autonomy] = await sql(
    `WITH u AS (SELECT org_id, user_id, sum(tool_calls) AS tc, sum(user_messages) AS um FROM user_days
                WHERE ${IN_MONTH} GROUP BY ALL)
     SELECT avg(tc / um) AS mean, quantile_cont(tc / um, 0.5) AS p50, quantile_cont(tc / um, 0.9) AS p90
     FROM u WHERE um > 0`,
  );
  // Seats: each organization's latest list, users created by the month's end; dormant: no activity
  // in the month, matched within the organization by id or e-mail.
  const [seats] = await sql(
    `WITH latest AS (SELECT org_id, max(as_of) AS as_of FROM org_users GROUP BY org_id),
     seat AS (SELECT o.org_id, o.id, lower(o.email) AS email FROM org_users o JOIN latest l USING (org_id, as_of)
              WHERE o.created_at IS NULL OR TRY_CAST(o.created_at AS TIMESTAMPTZ) IS NULL
                 OR TRY_CAST(o.created_at AS TIMESTAMPTZ) < TIMESTAMPTZ '2026-11-01 00:00:00+00'),
     active AS (SELECT DISTINCT org_id, user_id, lower(user_email) AS email FROM user_days
                WHERE ${IN_MONTH} AND (tool_calls > 0 OR messages > 0 OR sessions > 0))
     SELECT count(*) AS seats,
            count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM active a WHERE a.org_id = seat.org_id
                              AND (a.user_id = seat.id OR (seat.email IS NOT NULL AND a.email = seat.email)))) AS dormant
     FROM seat`,
  );
  // Readiness: a repository is an organization and a URL; its latest report by the month's end.
  const criteria = await sql(
    `WITH latest AS (
       SELECT org_id, report_id FROM (
         SELECT org_id, report_id, row_number() OVER (PARTITION BY org_id, repo_url ORDER BY created_at DESC, report_id DESC) AS k
         FROM readiness_reports WHERE created_at < TIMESTAMPTZ '2026-11-01 00:00:00+00') WHERE k = 1)
     SELECT l.org_id, l.report_id, c.criterion_id, c.numerator, c.denominator
     FROM latest l LEFT JOIN readiness_criteria c USING (org_id, report_id)`,
  );
  const repos = new Map<string, Array<{ criterion: string; score: number; pass: boolean }>>();
  for (const row of criteria) {
    const key = `${row.org_id}/${row.report_id}`;
    const list = repos.get(key) ?? [];
    repos.set(key, list);
    const [n, d] = [row.numerator, row.denominator];
    if (n === null || d === null || n === undefined || d === undefined) continue; // skipped
    const [numerator, denominator] = [num(n), num(d)];
    if (!(denominator >= 1 && numerator >= 0 && numerator <= denominator)) continue; // invalid
    list.push({
      criterion: String(row.criterion_id),
      score: numerator / denominator,
      pass: numerator === denominator,
    });
  }
  const scored = [...repos.values()].map((list) => ({
    score: list.length ? list.reduce((a, c) => a + c.score, 0) / list.length : null,
    level: levelOf(list),
  }));
  const scores = scored.map((r) => r.score).filter((s): s is number => s !== null);
  const active = num(users!.active);
  const seatCount = num(seats!.seats);
  return {
    active_users: active,
    avg_dau: num(dau!.avg),
    peak_dau: num(dau!.peak),
    stickiness: num(dau!.avg) / active,
    autonomy_mean: num(autonomy!.mean),
    autonomy_p50: num(autonomy!.p50),
    autonomy_p90: num(autonomy!.p90),
    seats: seatCount,
    seat_utilization: active / seatCount,
    dormant_seats: num(seats!.dormant),
    readiness_org_score: scores.reduce((a, b) => a + b, 0) / scores.length,
    readiness_org_level: Math.floor(scored.reduce((a, r) => a + r.level, 0) / scored.length),
    readiness_repos: scored.length,
  };
}

describe('the rollup of two organizations, figure by figure', () => {
  it('gives every figure id of the model its rule: the sum of the reports, a recomputation over the union of rows, or no value with the reason', async () => {
    expect(rollup.figures.map((f) => f.id)).toEqual([...FIGURE_IDS]);
    const expected = await recomputed();
    const rules = FIGURE_RULES as Readonly<Record<string, FigureRule | undefined>>;
    const checked: Record<string, string[]> = {};
    for (const id of FIGURE_IDS) {
      const rule = rules[id]?.organizations;
      expect(rule, `${id}: no rule across organizations in FIGURE_RULES`).toBeDefined();
      const total = figure(rollup, id)!;
      const [n, s] = [figure(reports.north, id)!, figure(reports.south, id)!];
      switch (rule!.rule) {
        case 'sum':
          expect(n.value, `${id} (North)`).not.toBeNull();
          expect(s.value, `${id} (South)`).not.toBeNull();
          expect(total.value, `${id} = North + South`).toBeCloseTo(n.value! + s.value!, 6);
          if (n.previous !== null && s.previous !== null) {
            expect(total.previous, `${id} previous`).toBeCloseTo(n.previous + s.previous, 6);
          }
          break;
        case 'recompute': {
          expect(
            Object.hasOwn(expected, id),
            `${id}: recomputed, but this test has no independent recomputation of it`,
          ).toBe(true);
          const value = expected[id];
          if (value === null || value === undefined) expect(total.value, id).toBeNull();
          else expect(total.value, `${id} recomputed over both organizations' rows`).toBeCloseTo(value, 9);
          break;
        }
        case 'per-organization':
        case 'unavailable': {
          expect(total.value, id).toBeNull();
          expect(total.unavailableReason, id).toContain(rule!.reason);
          if (rule!.rule === 'per-organization') {
            type Rows = Array<{ per_organization: Array<{ id: string; value: number | null }> }>;
            const rows = (rollup.sections?.rollup as { rows: Rows } | undefined)?.rows ?? [];
            expect(rows.slice(0, 2).map((r) => r.per_organization.find((p) => p.id === id)?.value)).toEqual([
              n.value,
              s.value,
            ]);
          }
          break;
        }
        default:
          expect.unreachable(`${id}: the rule ${rule!.rule} is not one across organizations`);
      }
      checked[rule!.rule] = [...(checked[rule!.rule] ?? []), id];
    }
    // The comparison is meaningful: both organizations changed settings, and the rollup adds them up.
    expect(figure(reports.north, 'controls_changes')!.value).toBeGreaterThan(0);
    expect(figure(reports.south, 'controls_changes')!.value).toBeGreaterThan(0);
    expect(checked.sum).toContain('controls_changes');
    expect(checked.recompute).toContain('readiness_repos');
  }, 60_000);

  it("lists each organization's control changes under its name, and names those with a security change", async () => {
    const revisions = await sql(
      `SELECT org_id, revision FROM control_revisions
       WHERE substr(updated_at, 1, 10) BETWEEN '${START}' AND '${END}' ORDER BY org_id, revision`,
    );
    const ids = { North: north.organization.orgId, South: south.organization.orgId };
    const parts = rollup.controls.organizations!;
    expect(parts.map((p) => p.organization)).toEqual([
      { id: ids.North, name: 'North' },
      { id: ids.South, name: 'South' },
    ]);
    for (const part of parts) {
      const own = revisions.filter((r) => r.org_id === part.organization.id).map((r) => num(r.revision));
      expect(
        part.changes.map((c) => c.revision),
        part.organization.name,
      ).toEqual(own);
      expect(part.changes.every((c) => c.organization?.name === part.organization.name)).toBe(true);
    }
    expect(rollup.controls.changes).toHaveLength(revisions.length);
    expect(figure(rollup, 'controls_changes')!.value).toBe(revisions.length);
    const withSecurity = (['North', 'South'] as const).filter((o) =>
      o === 'North' ? reports.north.controls.security.length > 0 : reports.south.controls.security.length > 0,
    );
    expect(rollup.whatChanged.find((f) => f.kind === 'security')).toMatchObject({
      organizations: withSecurity,
    });
    // The document: the controls page lists them under each name; the paragraph names the organizations.
    const controls = html.slice(html.indexOf('id="controls"'), html.indexOf('id="definitions"'));
    for (const part of parts) {
      expect(controls).toContain(`${part.organization.name}: ${part.changes.length} change`);
      for (const change of part.changes)
        expect(controls).toContain(`${part.organization.name}: revision ${change.revision}`);
    }
    // Settings are counted once, and how often they changed is told in revisions: of every
    // organization's revisions of the month, the rollup's "Enterprise-control changes" figure.
    const security = rollup.whatChanged.find((f) => f.kind === 'security') as {
      paths: string[];
      revisions: number;
      ofRevisions: number;
    };
    const changesFigure = figure(rollup, 'controls_changes')!.value;
    expect(security.ofRevisions).toBe(changesFigure);
    expect(security.ofRevisions).toBe(parts.reduce((sum, part) => sum + part.changes.length, 0));
    expect(security.revisions).toBe(
      parts.reduce((sum, part) => sum + new Set(part.security.map((s) => s.revision)).size, 0),
    );
    const inRevisions =
      security.revisions === security.ofRevisions
        ? `in all ${security.ofRevisions} of the month's enterprise-control changes`
        : `in ${security.revisions} of the month's ${security.ofRevisions} enterprise-control changes`;
    expect(html).toContain(
      `${security.paths.length} security-relevant enterprise setting${security.paths.length === 1 ? '' : 's'} changed this month in ${withSecurity.join(' and ')}, ${inRevisions.replaceAll("'", '&#x27;')} (`,
    );
  });

  it('keeps a repository per organization and URL, and says whose each row is', async () => {
    const latest = await sql(
      `SELECT DISTINCT org_id, repo_url FROM readiness_reports
       WHERE created_at < TIMESTAMPTZ '2026-11-01 00:00:00+00' ORDER BY org_id, repo_url`,
    );
    const urls = (org: string) => latest.filter((r) => r.org_id === org).map((r) => r.repo_url);
    // The two organizations evaluate the same URLs: by URL alone they would be one set of repositories.
    expect(urls(north.organization.orgId)).toEqual(urls(south.organization.orgId));
    expect(rollup.readiness.repos.map((r) => `${r.organization?.id} ${r.repo_url}`).sort()).toEqual(
      latest.map((r) => `${r.org_id} ${r.repo_url}`).sort(),
    );
    expect(figure(rollup, 'readiness_repos')!.value).toBe(
      reports.north.readiness.repos.length + reports.south.readiness.repos.length,
    );
    const readiness = html.slice(html.indexOf('id="readiness"'), html.indexOf('id="seats"'));
    expect(readiness).toContain('<th>Organization</th>');
    for (const r of rollup.readiness.repos)
      expect(readiness).toContain(`<td class="wrap">${r.organization?.name}</td>`);
  });
});

describe('docs/metrics.md', () => {
  it('states both rules of every figure id, as the definitions page does', () => {
    const docs = readFileSync(new URL('../docs/metrics.md', import.meta.url), 'utf8');
    for (const id of FIGURE_IDS) {
      const rule = FIGURE_RULES[id];
      const cells = [
        describeCombineRule(rule.organizations, 'organizations'),
        describeCombineRule(rule.people, 'people'),
      ];
      expect(docs, id).toContain(`| \`${id}\` | ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
    }
  });
});
