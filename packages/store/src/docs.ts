/**
 * The generated parts of docs/store.md: the datasets, written from {@link DATASETS}, and the
 * records, written from {@link RECORD_FILES} (the one source of each): tests hold the document to
 * them, `pnpm --filter @orgreport/store docs` rewrites them.
 */
import { RECORD_FILES, type RecordFieldSpec } from './records.ts';
import { DATASETS, type DatasetSpec, STORE_SCHEMA_VERSION } from './schema.ts';

function replaced(spec: DatasetSpec): string {
  switch (spec.replace.by) {
    case 'day':
      return `the rows of the days fetched (by \`${spec.replace.day}\`); the month's other days stay`;
    case 'key':
      return `the rows whose \`${spec.replace.key}\` came again; the others stay`;
    case 'partition':
      return spec.replace.wholeList
        ? 'every partition of the organization (the list is fetched whole)'
        : 'the whole partition';
  }
}

/** The Markdown of every dataset: what it holds, its partitions, what a re-fetch replaces, its columns. */
export function datasetsMarkdown(): string {
  const parts = [
    `Schema version: **${STORE_SCHEMA_VERSION}** (in \`_store.json\` and in every file's key-value metadata \`orgreport_store_schema\`).`,
  ];
  for (const spec of DATASETS) {
    parts.push(
      [
        `### \`${spec.name}\``,
        '',
        spec.doc,
        '',
        `- \`month=\`: the month of ${spec.monthOf}`,
        `- a re-fetch replaces: ${replaced(spec)}`,
        `- rows ordered by: ${spec.order.map((c) => `\`${c}\``).join(', ')}`,
        '',
        '| column | type | meaning |',
        '| --- | --- | --- |',
        ...spec.columns.map((c) => `| \`${c.name}\` | ${c.type} | ${c.doc.replaceAll('|', '\\|')} |`),
        '| `org_id` | VARCHAR (partition) | the organization |',
        '| `month` | VARCHAR (partition) | `YYYY-MM` |',
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** A record field's type as the document shows it. */
function fieldType(field: RecordFieldSpec): string {
  const type = {
    text: 'string',
    day: 'string `YYYY-MM-DD`',
    instant: 'string, ISO 8601 instant',
    boolean: 'boolean',
    number: 'number',
  }[field.type];
  return `${type}${field.nullable ? ' or null' : ''}${field.optional ? ' (optional)' : ''}`;
}

/** The Markdown of every record file: where it lives, what it holds, its fields. */
export function recordsMarkdown(): string {
  return Object.values(RECORD_FILES)
    .map((spec) =>
      [
        `### \`${spec.path}\``,
        '',
        spec.doc,
        '',
        '| field | type | meaning |',
        '| --- | --- | --- |',
        ...spec.fields.map((f) => `| \`${f.name}\` | ${fieldType(f)} | ${f.doc.replaceAll('|', '\\|')} |`),
      ].join('\n'),
    )
    .join('\n\n');
}
