// Writes the generated parts of docs/store.md (datasets from the schema, records from their table);
// tests check they are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { datasetsMarkdown, recordsMarkdown } from '../src/docs.ts';

const doc = new URL('../../../docs/store.md', import.meta.url);
let text = readFileSync(doc, 'utf8');
for (const [part, markdown] of [
  ['datasets', datasetsMarkdown()],
  ['records', recordsMarkdown()],
] as const) {
  const start = `<!-- ${part}:start -->`;
  const end = `<!-- ${part}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/store.md: the markers ${start} ... ${end} are missing`);
  text = `${text.slice(0, from + start.length)}\n${markdown}\n${text.slice(to)}`;
}
writeFileSync(doc, text);
