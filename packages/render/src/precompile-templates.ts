/**
 * Run by the package's build after tsdown (`node dist/precompile-templates.js`): compiles the
 * built-in templates (the layout and every built-in section's partial) into the table beside the
 * built modules, which renders then use instead of compiling them (see internal/builtin-compiled.ts).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMPILED_TABLE_FILE, compiledTableText } from './internal/builtin-compiled.ts';
import {
  COMPILE_STAMP,
  compileTemplateSource,
  loadTemplates,
  sectionPartials,
} from './internal/template-compile.ts';

const builtin = loadTemplates([], sectionPartials([]));
const templates = [builtin.layout, ...builtin.partials.values()];
const file = fileURLToPath(new URL(`./${COMPILED_TABLE_FILE}`, import.meta.url));
writeFileSync(
  file,
  compiledTableText(
    templates.map((t) => t.source),
    (source) => compileTemplateSource('built-in template', source),
    COMPILE_STAMP,
  ),
);
process.stdout.write(`${templates.length} built-in templates compiled into ${file}\n`);
