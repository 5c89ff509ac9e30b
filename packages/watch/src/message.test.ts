import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { alertMessage } from './message.ts';
import type { Alert } from './types.ts';

const alert: Alert = {
  rule: 'budget',
  key: 'budget|user:c@x.example|2026-10|actual-100',
  orgId: 'org_test',
  scope: { kind: 'user', name: 'c@x.example' },
  period: '2026-10',
  threshold: 'actual-100',
  severity: 'critical',
  day: '2026-10-14',
  sentence:
    'c@x.example has used 10 credits in 2026-10 up to 2026-10-14: 100% of its monthly budget of 10 (the config file).',
  figures: {
    credits_to_date: 1234567,
    budget: 10,
    percent_of_budget: 100.5,
    budget_source: 'config',
    weekday_rate: null,
  },
  more: { sql: 'SELECT 1', document: 'the monthly report' },
  person: true,
  email: 'c@x.example',
  userId: 'user_c',
  new: true,
};

describe('alertMessage', () => {
  it('makes an alert a message: subject, the sentence as summary, the figures as facts, no documents', () => {
    const m = alertMessage(alert);
    expect(m.kind).toBe('alert');
    expect(m.subject).toBe('[orgreport] critical: budget of c@x.example (2026-10, actual-100)');
    expect(m.summary).toBe(alert.sentence);
    expect(m.facts).toEqual([
      { label: 'credits_to_date', value: '1,234,567' },
      { label: 'budget', value: '10' },
      { label: 'percent_of_budget', value: '100.5' },
      { label: 'budget_source', value: 'config' },
      { label: 'weekday_rate', value: '(none)' },
    ]);
    expect(m.documents).toEqual([]);
    expect(m.text).toContain('More:\n  orgreport query --store DIR "SELECT 1"\n  the monthly report\n');
  });

  it("gives a More command a shell runs as written, whatever the SQL's e-mail address holds", () => {
    const sql = "SELECT * FROM user_days WHERE lower(user_email) = 'a`touch pwned`$(id)\\b!\"c@x.example'";
    const more = alertMessage({ ...alert, more: { sql } })
      .text.split('\n')
      .find((l) => l.includes('orgreport query'))!;
    // The command with `orgreport` swapped for a program that prints its arguments, one per line.
    const printed = execFileSync('bash', ['-c', more.trim().replace(/^orgreport /, "printf '%s\\0' ")], {
      encoding: 'utf8',
    });
    expect(printed.split('\0').slice(0, -1)).toEqual(['query', '--store', 'DIR', sql]);
  });

  it('names the person in the metadata, so that the message goes only to who may see them', () => {
    expect(alertMessage(alert).meta).toEqual({
      rule: 'budget',
      key: alert.key,
      org_id: 'org_test',
      scope: 'user:c@x.example',
      period: '2026-10',
      severity: 'critical',
      day: '2026-10-14',
      threshold: 'actual-100',
      person: 'true',
      email: 'c@x.example',
      user_id: 'user_c',
    });
    const team = alertMessage({
      ...alert,
      scope: { kind: 'team', name: 'Web' },
      person: false,
      email: undefined,
      userId: undefined,
    });
    expect(team.meta.person).toBe('false');
    expect(team.meta).not.toHaveProperty('email');
  });
});
