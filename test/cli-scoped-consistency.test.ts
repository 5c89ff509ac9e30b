/**
 * Every number on a scoped report is the scope's, and right. For a team with a person who moved in
 * the month, the team they moved to, a cost center and a manager with a deep subtree, the report is
 * made through the CLI with every section laid out, and every total it states (the model, the PDF's
 * text, the HTML, the workbook read by openpyxl) is held against the same total recomputed here
 * from the snapshot's `/users` rows and the directory file, with a membership rule written again in
 * this test. A section may not show zeros where the scope's people were active.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import type { ReportModel } from '@orgreport/metrics';
import { readSnapshot } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, pdfText, readWorkbook, sheetObjects, tempDir } from './helpers.ts';

const MONTH = { start: '2026-10-01', end: '2026-10-31' };
const SUMMED = [
  'billable_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'mcp_calls',
  'skill_calls',
  'slash_commands',
  'hooks',
] as const;
type Summed = (typeof SUMMED)[number];

interface Row {
  email: string;
  team: string;
  costCenter: string;
  manager: string;
  validFrom: string;
}

/** The directory file's rows (a plain CSV without quoted commas, as the emulator writes it). */
function directoryRows(file: string): Row[] {
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const h = header!.split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    const get = (name: string) => cells[h.indexOf(name)] ?? '';
    return {
      email: get('email').toLowerCase(),
      team: get('team'),
      costCenter: get('cost_center'),
      manager: get('manager').toLowerCase(),
      validFrom: get('valid_from'),
    };
  });
}

/** Who is in a scope on a day, by this test's own reading of the directory. */
function membership(rows: readonly Row[], scope: string): (email: string, day: string) => boolean {
  const rowOn = (email: string, day: string) =>
    rows
      .filter((r) => r.email === email && (r.validFrom === '' || r.validFrom <= day))
      .sort((a, b) => (a.validFrom < b.validFrom ? -1 : 1))
      .at(-1);
  const [kind, name] = [scope.slice(0, scope.indexOf(':')), scope.slice(scope.indexOf(':') + 1)];
  return (email, day) => {
    const row = rowOn(email.toLowerCase(), day);
    if (!row) return false;
    if (kind === 'team') return row.team === name;
    if (kind === 'cost-center') return row.costCenter === name;
    // A manager's scope: everyone whose chain of managers that day reaches them.
    let at: Row | undefined = row;
    for (let depth = 0; at && at.manager && depth < 50; depth++) {
      if (at.manager === name.toLowerCase()) return true;
      at = rowOn(at.manager, day);
    }
    return false;
  };
}

/** The scope's totals, recomputed from the snapshot's rows. */
interface Totals {
  sums: Record<Summed, number>;
  activeUsers: number;
  seats: number;
  creditsByModel: Map<string, number>;
  creditsByTier: Map<string, number>;
  languageDays: Map<string, number>;
}

async function recompute(
  snapshotDir: string,
  inScope: (email: string, day: string) => boolean,
): Promise<Totals> {
  const snapshot = await readSnapshot(snapshotDir);
  const u = snapshot.userDays;
  // A user's e-mail: their latest non-null /users e-mail, else their seat's.
  const email = new Map<string, string>();
  for (const o of snapshot.orgUsers) if (o.email) email.set(o.id, o.email.toLowerCase());
  const latest = new Map<string, string>();
  for (let i = 0; i < u.user_id.length; i++) {
    const e = u.user_email[i];
    if (e && (latest.get(u.user_id[i]!) ?? '') <= u.date[i]!) {
      latest.set(u.user_id[i]!, u.date[i]!);
      email.set(u.user_id[i]!, e.toLowerCase());
    }
  }
  const sums = Object.fromEntries(SUMMED.map((k) => [k, 0])) as Record<Summed, number>;
  const active = new Set<string>();
  const creditsByModel = new Map<string, number>();
  const creditsByTier = new Map<string, number>();
  const languageDays = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (let i = 0; i < u.user_id.length; i++) {
    const day = u.date[i]!;
    const who = email.get(u.user_id[i]!);
    if (day < MONTH.start || day > MONTH.end || !who || !inScope(who, day)) continue;
    for (const k of SUMMED) sums[k] += Number(u[k][i] ?? 0);
    const isActive = (u.tool_calls[i] ?? 0) > 0 || (u.messages[i] ?? 0) > 0 || (u.sessions[i] ?? 0) > 0;
    if (isActive) {
      active.add(u.user_id[i]!);
      for (const language of u.languages[i] ?? []) add(languageDays, language, 1);
    }
    const credits = u.billable_tokens[i] ?? 0;
    if (credits > 0) {
      add(creditsByModel, u.primary_model[i] ?? 'unknown', credits);
      add(creditsByTier, u.primary_model_tier[i] ?? 'unknown', credits);
    }
  }
  const endMs = Date.parse(`${MONTH.end}T23:59:59.999Z`);
  const seats = snapshot.orgUsers.filter(
    (o) => (!o.createdAt || Date.parse(o.createdAt) <= endMs) && o.email && inScope(o.email, MONTH.end),
  ).length;
  return { sums, activeUsers: active.size, seats, creditsByModel, creditsByTier, languageDays };
}

const sectionIds = (model: ReportModel) => model as unknown as { sections: Record<string, unknown> };
const grouped = (n: number) => n.toLocaleString('en-US');
const sumOf = <T>(rows: readonly T[], f: (r: T) => unknown) =>
  rows.reduce((a, r) => a + Number(f(r) ?? 0), 0);
const mapOf = (rows: ReadonlyArray<{ name: string; value: number }>) =>
  new Map(rows.filter((r) => r.value !== 0).map((r) => [r.name, r.value]));

let emulator: RunningEmulator;
let dir: string;
let people: string;
let rows: Row[];
const env = () => ({
  ...envFor(emulator),
  ORGREPORT_PRICE_PER_CREDIT: '0.000004',
  ORGREPORT_PRICE_PER_SEAT: '19',
});

beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  emulator = await startEmulator({ seed: 7, users: 60, today: '2026-11-22' });
  dir = tempDir('orgreport-scoped-');
  people = join(dir, 'people.csv');
  const made = await cli(['emulator', '--seed', '7', '--users', '60', '--directory', people]);
  expect(made.code, made.err).toBe(0);
  rows = directoryRows(people);
});
afterAll(async () => {
  await emulator?.close();
});

/** The scopes of the test: a mover's old and new teams, a cost center, the manager with the deepest subtree. */
function scopes(): string[] {
  const moved = rows.find(
    (r) => r.validFrom !== '' && r.validFrom > MONTH.start && r.validFrom <= MONTH.end,
  )!;
  const before = rows.find((r) => r.email === moved.email && r !== moved)!;
  const depth = (email: string): number => {
    const r = rows.find((x) => x.email === email && x.validFrom === '');
    return r?.manager ? 1 + depth(r.manager) : 0;
  };
  // The manager above the deepest person, two levels up: a subtree of at least three levels.
  const deepest = [...rows].sort((a, b) => depth(b.email) - depth(a.email))[0]!;
  const grand = rows.find((r) => r.email === deepest.manager)!.manager;
  expect(depth(deepest.email)).toBeGreaterThanOrEqual(3);
  return [
    `team:${before.team}`,
    `team:${moved.team}`,
    `cost-center:${before.costCenter}`,
    `manager:${grand}`,
  ];
}

describe('a scoped report states only its scope’s numbers, and right', () => {
  it('in the model, the PDF, the HTML and the workbook, for every section and every kind of scope', {
    timeout: 300_000,
  }, async () => {
    const all = (await import('@orgreport/metrics')).BUILTIN_SECTION_IDS.join(',');
    for (const scope of scopes()) {
      const out = join(dir, scope.replace(/[^a-z0-9]+/gi, '-'));
      const run = await cli(
        [
          'monthly',
          '--month',
          '2026-10',
          '--directory',
          people,
          '--scope',
          scope,
          '--sections',
          all,
          '--formats',
          'json,html,pdf,xlsx',
          '--out',
          out,
        ],
        { env: env() },
      );
      expect(run.code, `${scope}: ${run.err}`).toBe(0);
      const base = (ext: string) => join(out, readdirSync(out).find((f) => f.endsWith(`.${ext}`))!);
      const t = await recompute(join(out, 'snapshot'), membership(rows, scope));
      expect(t.activeUsers, scope).toBeGreaterThan(0);
      const model = JSON.parse(readFileSync(base('json'), 'utf8')) as ReportModel;
      const figure = (id: string) => model.figures.find((f) => f.id === id)!.value;
      const at = `${scope}:`;

      // The model: its figures, every section's totals, the daily and weekly series, the people.
      const byFigure: Array<[string, number]> = [
        ['credits', t.sums.billable_tokens],
        ['tool_calls', t.sums.tool_calls],
        ['sessions', t.sums.sessions],
        ['messages', t.sums.messages],
        ['user_messages', t.sums.user_messages],
        ['files_created', t.sums.files_created],
        ['files_edited', t.sums.files_edited],
        ['git_commits', t.sums.git_commits],
        ['git_prs_created', t.sums.git_prs_created],
        ['active_users', t.activeUsers],
        ['seats', t.seats],
      ];
      for (const [id, value] of byFigure) expect(figure(id), `${at} figure ${id}`).toBe(value);
      expect(model.credits.total, `${at} credits`).toBe(t.sums.billable_tokens);
      expect(
        mapOf(model.credits.byModel.map((m) => ({ name: m.model_id, value: m.credits }))),
        `${at} by model`,
      ).toEqual(t.creditsByModel);
      expect(
        mapOf(model.credits.byTier.map((m) => ({ name: m.tier, value: m.credits }))),
        `${at} by tier`,
      ).toEqual(t.creditsByTier);
      const p = model.productivity;
      expect(
        [p.files_created, p.files_edited, p.git_commits, p.git_prs_created],
        `${at} productivity`,
      ).toEqual([t.sums.files_created, t.sums.files_edited, t.sums.git_commits, t.sums.git_prs_created]);
      expect(mapOf(p.byLanguage.map((l) => ({ name: l.name, value: l.count }))), `${at} languages`).toEqual(
        t.languageDays,
      );
      const tools = model.tools;
      expect(
        [tools.total, tools.mcpTotal, tools.skillsTotal, tools.slashCommandsTotal, tools.hooksTotal],
        `${at} tools`,
      ).toEqual([
        t.sums.tool_calls,
        t.sums.mcp_calls,
        t.sums.skill_calls,
        t.sums.slash_commands,
        t.sums.hooks,
      ]);
      // What the API gives for the organization only is not shown as the scope's (no table of zeros).
      expect(model.clients, `${at} clients`).toEqual([]);
      for (const k of ['credits', 'tool_calls', 'sessions', 'files_created', 'git_prs_created'] as const) {
        const summed = k === 'credits' ? t.sums.billable_tokens : t.sums[k as Summed];
        expect(
          sumOf(model.daily, (d) => d[k]),
          `${at} daily ${k}`,
        ).toBe(summed);
        expect(
          sumOf(model.weekly, (w) => w[k]),
          `${at} weekly ${k}`,
        ).toBe(summed);
      }
      expect(
        sumOf(model.users, (u) => u.credits),
        `${at} users' credits`,
      ).toBe(t.sums.billable_tokens);
      expect(model.users.filter((u) => u.active_days > 0).length, `${at} active users listed`).toBe(
        t.activeUsers,
      );
      const sections = sectionIds(model).sections;
      const teams = sections['teams'] as { rows: Array<{ credits: number; seats: number }> };
      const chargeback = sections['chargeback'] as {
        total: { credits: number; seats: number; total_cost: number };
      };
      expect([sumOf(teams.rows, (r) => r.credits), sumOf(teams.rows, (r) => r.seats)], `${at} teams`).toEqual(
        [t.sums.billable_tokens, t.seats],
      );
      expect([chargeback.total.credits, chargeback.total.seats], `${at} chargeback`).toEqual([
        t.sums.billable_tokens,
        t.seats,
      ]);
      expect(
        (sections['brief'] as { cost: { total_cost: number } }).cost.total_cost,
        `${at} brief's bill`,
      ).toBe(chargeback.total.total_cost);
      expect((sections['people'] as { active: number }).active, `${at} people`).toBe(t.activeUsers);
      expect(model.seats.seats, `${at} seats page`).toBe(t.seats);

      // The PDF and the HTML say the same totals in words.
      const stated = [
        `${grouped(t.sums.billable_tokens)} credits in the period`,
        `${grouped(t.sums.files_created)} files created, ${grouped(t.sums.files_edited)} files edited, ${grouped(t.sums.git_commits)} commits and ${grouped(t.sums.git_prs_created)} pull requests created`,
        `${grouped(t.sums.tool_calls)} tool calls; ${grouped(t.sums.mcp_calls)} MCP calls`,
        `${grouped(t.seats)} seats`,
      ];
      const pdf = pdfText(base('pdf'));
      const html = readFileSync(base('html'), 'utf8')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&#x27;|&#39;/g, "'")
        .replace(/\s+/g, ' ');
      for (const text of stated) {
        expect(pdf, `${at} PDF: ${text}`).toContain(text);
        expect(html, `${at} HTML: ${text}`).toContain(text);
      }
      for (const zero of ['0 files created', ' standard 0 ', ' thinking 0 ']) {
        if (t.sums.files_created > 0 || t.sums.billable_tokens > 0) {
          expect(pdf, `${at} PDF shows a zero: ${zero}`).not.toMatch(
            new RegExp(`(^|[^0-9,])${zero.trim()}\\b`),
          );
        }
      }

      // The workbook, read by openpyxl.
      const book = readWorkbook(base('xlsx'));
      const summary = new Map(sheetObjects(book['Summary']).map((r) => [r['id'], r['value']]));
      for (const [id, value] of byFigure) expect(summary.get(id), `${at} Summary ${id}`).toBe(value);
      expect(
        sumOf(sheetObjects(book['Daily']), (r) => r['credits']),
        `${at} Daily`,
      ).toBe(t.sums.billable_tokens);
      expect(
        sumOf(sheetObjects(book['Users']), (r) => r['credits']),
        `${at} Users`,
      ).toBe(t.sums.billable_tokens);
      expect(
        sumOf(sheetObjects(book['Models']), (r) => r['credits']),
        `${at} Models`,
      ).toBe(t.sums.billable_tokens);
      expect(
        sumOf(sheetObjects(book['Teams']), (r) => r['credits']),
        `${at} Teams`,
      ).toBe(t.sums.billable_tokens);
      const charges = sheetObjects(book['Chargeback']).filter((r) => r['kind'] === 'cost_center');
      expect(
        sumOf(charges, (r) => r['credits']),
        `${at} Chargeback`,
      ).toBe(t.sums.billable_tokens);
    }
  });
});
