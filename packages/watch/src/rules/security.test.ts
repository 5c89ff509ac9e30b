import type { ControlChange } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { topLevelDiff } from '../__fixtures__/history.ts';
import { securityFindings } from './security.ts';

const diff = topLevelDiff(new Set(['enableAgentShield', 'sandbox']));
const owner = { id: 'user_1', email: 'owner@x.example', name: 'Eden Wolf' };
const revisions: ControlChange[] = [
  { revision: 4, updatedAt: '2026-10-20T10:00:00.000Z', user: owner, settings: { enableAgentShield: false } },
  {
    revision: 1,
    updatedAt: '2026-09-01T10:00:00.000Z',
    user: owner,
    settings: { enableAgentShield: false, model: 'a' },
  },
  {
    revision: 2,
    updatedAt: '2026-10-05T12:00:00.000Z',
    user: owner,
    settings: { enableAgentShield: true, model: 'a', sandbox: { enabled: true } },
  },
  {
    revision: 3,
    updatedAt: '2026-10-09T08:00:00.000Z',
    user: { id: 'user_2', email: null, name: null },
    settings: { enableAgentShield: true, model: 'b', sandbox: { enabled: true } },
  },
] as ControlChange[];
const NOW = '2026-10-10T00:00:00.000Z';

describe('security rule', () => {
  it('alerts on each revision since the last one seen that changed a security setting, with before, after, who and when', () => {
    const { findings, lastRevision } = securityFindings('org_test', revisions, 1, NOW, diff);
    expect(lastRevision).toBe(3); // revision 4's time has not come
    expect(findings).toHaveLength(1); // revision 3 changed no security setting
    expect(findings[0]).toMatchObject({
      rule: 'security',
      key: 'security|organization:org_test|r2',
      period: 'r2',
      day: '2026-10-05',
      person: false,
      figures: {
        revision: 2,
        previous_revision: 1,
        updated_at: '2026-10-05T12:00:00.000Z',
        by: 'Eden Wolf <owner@x.example>',
        enableAgentShield: 'false -> true',
        sandbox: '(none) -> {"enabled":true}',
      },
    });
    expect(findings[0]!.sentence).toBe(
      'Security-relevant enterprise settings changed in revision 2 by Eden Wolf <owner@x.example> at 2026-10-05T12:00:00.000Z: enableAgentShield false -> true; sandbox (none) -> {"enabled":true}.',
    );
    expect(findings[0]!.more.sql).toBe(
      "SELECT revision, updated_at, user_email, settings FROM control_revisions WHERE org_id = 'org_test' AND revision IN (1, 2) ORDER BY revision",
    );
  });

  it('takes the revisions up to now as seen on the first watch, and alerts on none of them', () => {
    expect(securityFindings('org_test', revisions, null, NOW, diff)).toEqual({
      findings: [],
      lastRevision: 3,
    });
    // Nothing new since the last watch: nothing, and the revision seen stays.
    expect(securityFindings('org_test', revisions, 3, NOW, diff)).toEqual({ findings: [], lastRevision: 3 });
    // Once revision 4's time has come it alerts (the shield switched off).
    const later = securityFindings('org_test', revisions, 3, '2026-10-21T00:00:00Z', diff);
    expect(later.findings.map((f) => [f.key, f.figures.enableAgentShield])).toEqual([
      ['security|organization:org_test|r4', 'true -> false'],
    ]);
  });
});
