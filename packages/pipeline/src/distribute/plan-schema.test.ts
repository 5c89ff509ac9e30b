import { describe, expect, it } from 'vitest';
import { planProblem, planSchema } from './plan-schema.ts';

const problem = (plan: unknown) => {
  const parsed = planSchema.safeParse(plan);
  expect(parsed.success).toBe(false);
  return planProblem(parsed.error!.issues[0]!);
};

describe('planProblem', () => {
  it('says where an unknown key is, by rule number, and the keys that part takes', () => {
    expect(problem({ rules: [{ each: 'manager' }, { each: 'manager', fromats: ['pdf'] }] })).toBe(
      'rule 2: unknown key "fromats" (a rule takes: each, scope, owner, to, deliver, formats, sections, people)',
    );
    expect(problem({ rules: [{ each: 'manager' }], rule: [] })).toBe(
      'the plan: unknown key "rule" (a plan takes: minGroupSize, rules, finance)',
    );
    expect(problem({ rules: [{ each: 'manager' }], finance: { to: ['a@x.test'], peple: 'all' } })).toBe(
      'finance: unknown key "peple" ("finance" takes: to, formats, people)',
    );
  });

  it("names a value's place within a rule, with the schema's message", () => {
    expect(problem({ rules: [{ each: 'manager', formats: ['pdf', 'docx'] }] })).toBe(
      'rule 1 formats 2: expected pdf, xlsx, html or json',
    );
  });
});
