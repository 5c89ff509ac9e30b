/**
 * Enterprise-control changes: each revision of the period with who made it and its field-level diff,
 * security-relevant changes first; in a rollup, each organization's changes under its name; the
 * workbook's Controls sheet; the check of settings the API specification does not document.
 */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { settingsDrift } from '../../internal/transforms/schema-drift.ts';
import type { ControlChangeRow, ControlFieldDiff, DataQualityFinding, ReportModel } from '../../model.ts';
import type { SheetColumn } from '../../section.ts';
import { builtinSection } from '../builtin.ts';

/** One field-level difference with its revision (the `Controls` sheet has one row per diff). */
interface ControlSheetRow {
  change: ControlChangeRow;
  diff: ControlFieldDiff | null;
}

function controlColumns(model: ReportModel): SheetColumn<ControlSheetRow>[] {
  // In a rollup each row names its organization (the stacking org_id column is the rollup's own).
  const organization: SheetColumn<ControlSheetRow>[] = model.controls.organizations
    ? [
        { header: 'organization_id', kind: 'text', value: (r) => r.change.organization?.id ?? null },
        { header: 'organization', kind: 'text', value: (r) => r.change.organization?.name ?? null },
      ]
    : [];
  return [
    ...organization,
    { header: 'revision', kind: 'level', value: (r) => r.change.revision },
    { header: 'updated_at', kind: 'datetime', value: (r) => r.change.updated_at },
    { header: 'user_name', kind: 'text', value: (r) => r.change.user.name },
    { header: 'user_email', kind: 'text', value: (r) => r.change.user.email },
    { header: 'previous_revision', kind: 'level', value: (r) => r.change.previous_revision },
    { header: 'path', kind: 'text', value: (r) => r.diff?.path ?? null },
    { header: 'kind', kind: 'text', value: (r) => r.diff?.kind ?? null },
    { header: 'before', kind: 'text', value: (r) => r.diff?.before ?? null },
    { header: 'after', kind: 'text', value: (r) => r.diff?.after ?? null },
    { header: 'redacted', kind: 'boolean', value: (r) => r.diff?.redacted ?? null },
    { header: 'security', kind: 'boolean', value: (r) => r.diff?.security ?? null },
  ];
}

function controlRows(model: ReportModel): ControlSheetRow[] {
  return model.controls.changes.flatMap((change): ControlSheetRow[] =>
    change.diffs.length ? change.diffs.map((diff) => ({ change, diff })) : [{ change, diff: null }],
  );
}

export const controls = builtinSection('controls', {
  id: 'controls',
  // Enterprise settings belong to the organization, not to a set of people.
  scope: 'organization',
  title: 'Enterprise-control changes',
  // The changes are found with the period's figures (controls_changes counts them).
  compute: (context) => runOf(context).controls,
  checks: (context) => {
    const parts = context.snapshot.organizations;
    if (!parts) {
      return [settingsDrift(context.snapshot.controls)].filter((f): f is DataQualityFinding => f !== null);
    }
    // In a rollup each organization's revisions follow one another, not another organization's.
    return parts.flatMap((part) => {
      const finding = settingsDrift(part.controls);
      return finding ? [{ ...finding, message: `${part.organization.name}: ${finding.message}` }] : [];
    });
  },
  definitions: [
    {
      id: 'controls',
      term: 'Enterprise-control changes',
      text: 'The revisions whose updatedAt falls inside the period, each with who made it, when, and a field-level diff against the previous revision. In a rollup, each organization\u2019s revisions are listed under its name (revision numbers count per organization) and the count of changes is their sum. Secrets are known by what they are, not by what a field is called: the fields the API documents as secret (a custom model\u2019s apiKey, its extraHeaders and its cloud credential export) never show their values (a changed one reads "changed (redacted)"), and credentials inside text (bearer tokens, sk- keys, GitHub and Slack tokens, AWS key ids, JWTs) are masked in place; every other setting, such as restrictApiKeyCreationToManagers, shows its before and after. Changes to security-relevant settings (key creation, member visibility, models, MCP, plugins and marketplaces, command lists, network, sandbox, shield, managed and own computers, cloud sync and session retention) are marked and listed first.',
    },
  ],
  organizationContext: (organization) => [
    {
      id: 'controls',
      title: 'Enterprise-control changes',
      rows: [
        {
          label: 'Revisions of the settings this month',
          value: organization.controls.changes.length,
          kind: 'integer' as const,
        },
        {
          // Settings, each counted once however often it changed: the unit of the organization's
          // own sentence ("5 security-relevant enterprise settings changed").
          label: 'Security-relevant settings changed',
          value: new Set(organization.controls.security.map((c) => c.path)).size,
          kind: 'integer' as const,
        },
      ],
    },
  ],
  partial: { file: fileURLToPath(new URL('./controls.hbs', import.meta.url)) },
  sheets: [{ name: 'Controls', columns: controlColumns, rows: controlRows }],
});
