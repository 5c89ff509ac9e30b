import { eachDay } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { HOSTILE_LIST, HOSTILE_STRINGS } from './hostile.ts';
import { createOrganization } from './organization.ts';

const TODAY = '2026-11-22';
const org = createOrganization({ seed: 3, users: 30, today: TODAY, hostile: true });
const ordinary = createOrganization({ seed: 3, users: 30, today: TODAY });
const MONTHS = { start: '2026-08-01', end: '2026-10-31' };

/** Every string anywhere inside a value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function hostileIn(values: string[]): string[] {
  return HOSTILE_LIST.filter((h) => values.some((v) => v === h || (h !== '' && v.includes(h))));
}

const days = eachDay(MONTHS.start, MONTHS.end);
const toolsDays = days.map((d) => org.toolsDay(d));
const settings = org.controlHistory.map((c) => c.settings);
const customModels = settings.flatMap((s) => s.customModels ?? []);
const users = [...org.users()];
const places: Record<string, string[]> = {
  'user names': users.flatMap((u) => [u.firstName ?? '', u.lastName ?? '']),
  'repository URLs': org.readinessReports.map((r) => r.repoUrl),
  'tool names': toolsDays.flatMap((t) => t.by_tool.map((x) => x.tool)),
  'criterion rationales': org.readinessReports.flatMap((r) =>
    Object.values(r.report).map((e) => e.rationale ?? ''),
  ),
  'settings values': settings.flatMap((s) => strings({ ...s, customModels: [] })),
  'custom-model fields': customModels.flatMap((m) => strings({ ...m, apiKey: undefined })),
  'MCP servers': toolsDays.flatMap((t) => t.mcp_by_server.map((x) => x.server)),
  skills: toolsDays.flatMap((t) => t.skills_by_name.map((x) => x.name)),
};

describe('hostile mode', () => {
  it.each(Object.keys(places))('plants hostile values in %s', (place) => {
    expect(hostileIn(places[place] ?? []).length).toBeGreaterThan(0);
  });

  it('plants markup and a formula at the start of e-mails', () => {
    const emails = users.map((u) => u.email ?? '');
    expect(emails.some((e) => e.startsWith('=HYPERLINK('))).toBe(true);
    expect(emails.some((e) => e.includes('<b>'))).toBe(true);
  });

  it('plants every kind of hostile value somewhere, the empty string in names', () => {
    const all = Object.values(places).flat();
    const kinds = {
      script: HOSTILE_STRINGS.script,
      handlebars: HOSTILE_STRINGS.handlebars,
      hyperlink: HOSTILE_STRINGS.hyperlinkFormula,
      cmd: HOSTILE_STRINGS.cmdFormula,
      at: HOSTILE_STRINGS.atFormula,
      rtl: HOSTILE_STRINGS.rightToLeft,
      emoji: HOSTILE_STRINGS.emoji,
      tab: HOSTILE_STRINGS.tabFormula,
      cr: HOSTILE_STRINGS.carriageReturnFormula,
    };
    for (const [kind, value] of Object.entries(kinds))
      expect(
        all.some((v) => v.includes(value)),
        kind,
      ).toBe(true);
    expect(all.some((v) => v.length >= 10_000)).toBe(true);
    expect(HOSTILE_STRINGS.long).toHaveLength(10_000);
    expect(places['user names']).toContain('');
    expect(HOSTILE_STRINGS.hyperlinkFormula.startsWith('=HYPERLINK(')).toBe(true);
    expect(HOSTILE_STRINGS.cmdFormula.startsWith('+cmd|')).toBe(true);
    expect(HOSTILE_STRINGS.atFormula.startsWith('@SUM(')).toBe(true);
  });

  it('keeps custom-model keys ordinary fake keys and the sums exact', () => {
    expect(customModels.length).toBeGreaterThan(0);
    for (const m of customModels) expect(m.apiKey).toMatch(/^fake-key-[0-9a-f]+$/);
    for (const t of toolsDays.slice(0, 20)) {
      expect(t.by_tool.reduce((a, x) => a + x.invocations, 0)).toBe(t.tool_calls);
      expect(t.mcp_by_server.reduce((a, x) => a + x.invocations, 0)).toBe(
        t.by_tool.filter((x) => x.tool.startsWith('mcp__')).reduce((a, x) => a + x.invocations, 0),
      );
      expect(t.skills_by_name.reduce((a, x) => a + x.count, 0)).toBe(t.skills_invocations);
    }
  });

  it('leaves the ordinary organization free of hostile values', () => {
    const all = [
      ...[...ordinary.users()].flatMap((u) => [u.firstName ?? '', u.lastName ?? '', u.email ?? '']),
      ...days.slice(0, 30).flatMap((d) => strings(ordinary.toolsDay(d))),
      ...strings(ordinary.controlHistory),
    ];
    expect(hostileIn(all.filter((v) => v !== ''))).toEqual([]);
  });
});
