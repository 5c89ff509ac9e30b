/**
 * Data quality: every section's findings in section order; the checks of the fetch as a whole (row
 * fields the API specification does not document, rows the fetch excluded or flagged, a redirect to
 * another host); the workbook's Data quality and Data quality details sheets.
 */
import { fileURLToPath } from 'node:url';
import { field } from '../../internal/sheet-columns.ts';
import { redirectFinding, rowCheckFindings } from '../../internal/transforms/row-checks.ts';
import { manifestUnknownFields, unknownFields } from '../../internal/transforms/schema-drift.ts';
import { listSheet } from '../../list-sheet.ts';
import type { DataQualityFinding } from '../../model.ts';
import { defineSection } from '../../section.ts';

/**
 * The `Data quality details` sheet: one row per item behind a finding (a day, a name, a report),
 * keyed by the finding's kind; an item that is an object is its JSON.
 */
const findingDetails = listSheet({
  name: 'Data quality details',
  rows: (model) => model.dataQuality,
  key: [field<DataQualityFinding, 'kind'>('kind', 'text')],
  items: (finding) =>
    (finding.details ?? []).map((d) => ({ detail: typeof d === 'string' ? d : JSON.stringify(d) })),
  columns: [{ header: 'detail', kind: 'text', value: (d) => d.detail }],
});

export const dataQuality = defineSection({
  id: 'data-quality',
  // The findings are about the organization's data, from which every scope is cut.
  scope: 'organization',
  title: 'Data quality',
  checks: ({ snapshot }) =>
    [
      unknownFields(snapshot, manifestUnknownFields(snapshot.manifest)),
      ...rowCheckFindings(snapshot.manifest),
      redirectFinding(snapshot.manifest),
    ].filter((f): f is DataQualityFinding => f !== null),
  definitions: [
    {
      id: 'data_quality',
      term: 'Data quality',
      text: 'Listed: days missing in the period, merged MCP spellings, unparseable tool names, autonomy shares off by more than 1 %, invalid readiness evaluations, criteria missing from the level mapping, daily totals that differ by more than 0.5 % (of the analytics total) from the sum of the per-user rows of the same day, and what the API specification does not describe: delegation levels and client types it does not list, row fields it does not document, and enterprise settings it does not document or that a revision renamed or removed.',
    },
    {
      id: 'row_checks',
      term: 'Checked rows',
      text: 'Numbers from the API are checked, not trusted. A row with a negative count (or negative credits) is excluded from every figure; a row with a fractional count (calls, sessions, messages, files, tokens: whole numbers by definition; credits may be fractional) is kept as sent and flagged; a row dated outside the requested days, or today or later, is excluded; a second row for the same user and day (per-user rows) or the same day (daily totals), as overlapping pages give, is excluded, never summed: the first one received counts. Each rule that found rows is listed under data quality with how many rows and what was done.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./data-quality.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Data quality',
      columns: () => [
        { header: 'kind', kind: 'text', value: (f: DataQualityFinding) => f.kind },
        { header: 'message', kind: 'text', value: (f: DataQualityFinding) => f.message },
        { header: 'count', kind: 'integer', value: (f: DataQualityFinding) => f.count ?? null },
      ],
      rows: (model) => model.dataQuality,
    },
    findingDetails,
  ],
});
