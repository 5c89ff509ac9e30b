// Writes the manual's settings table (docs/configuration.md) from the settings table (settings.test.ts checks it is current).
import { readFileSync, writeFileSync } from 'node:fs';
import { settingsMarkdown } from '../src/config/settings.ts';

const page = new URL('../../../docs/configuration.md', import.meta.url);
const START = '<!-- settings-table:start -->';
const END = '<!-- settings-table:end -->';
const text = readFileSync(page, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from)
  throw new Error(`docs/configuration.md: the markers ${START} ... ${END} are missing`);
writeFileSync(page, `${text.slice(0, from + START.length)}\n${settingsMarkdown()}\n${text.slice(to)}`);
