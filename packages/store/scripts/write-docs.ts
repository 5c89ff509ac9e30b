// Writes the datasets' part of docs/store.md from the schema (docs.test.ts checks it is current).
import { readFileSync, writeFileSync } from 'node:fs';
import { datasetsMarkdown } from '../src/docs.ts';

const doc = new URL('../../../docs/store.md', import.meta.url);
const START = '<!-- datasets:start -->';
const END = '<!-- datasets:end -->';
const text = readFileSync(doc, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`docs/store.md: the markers ${START} ... ${END} are missing`);
writeFileSync(doc, `${text.slice(0, from + START.length)}\n${datasetsMarkdown()}\n${text.slice(to)}`);
