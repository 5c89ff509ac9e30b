import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledTableText, readCompiledTable, sourceKey } from './builtin-compiled.ts';
import { COMPILE_STAMP, compileTemplateSource } from './template-compile.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-compiled-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SOURCES = ['<p>{{title}}</p>', '<div>{{> cover}}{{#*inline "own"}}x{{/inline}}{{> own}}</div>'];

function tableFile(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

describe('the table of compiled templates', () => {
  it('gives back each source as compiled at run time, with the partials it refers to', () => {
    const file = tableFile(
      'table.json',
      compiledTableText(SOURCES, (s) => compileTemplateSource('test', s), COMPILE_STAMP),
    );
    const table = readCompiledTable(file, COMPILE_STAMP);
    expect(table.size).toBe(2);
    for (const source of SOURCES) {
      const entry = table.get(sourceKey(source));
      expect(entry?.compiled).toBe(compileTemplateSource('test', source).compiled);
    }
    // `own` is defined inline: only `cover` must come from elsewhere.
    expect([...table.get(sourceKey(SOURCES[1]!))!.partials]).toEqual(['cover']);
  });

  it('is not used when another Handlebars or other options made it', () => {
    const file = tableFile(
      'other.json',
      compiledTableText(SOURCES, (s) => compileTemplateSource('test', s), 'handlebars 4.0.0 {}'),
    );
    expect(readCompiledTable(file, COMPILE_STAMP).size).toBe(0);
  });

  it('is empty when there is none or it cannot be read (the templates are then compiled at run time)', () => {
    expect(readCompiledTable(join(scratch, 'missing.json'), COMPILE_STAMP).size).toBe(0);
    expect(readCompiledTable(tableFile('cut.json', '{"stamp":'), COMPILE_STAMP).size).toBe(0);
    const odd = tableFile(
      'odd.json',
      JSON.stringify({ stamp: COMPILE_STAMP, templates: { k: { compiled: 1 } } }),
    );
    expect(readCompiledTable(odd, COMPILE_STAMP).size).toBe(0);
  });

  it('keys a source by its SHA-256, so an edited template is not found', () => {
    // The digest as sha256sum gives it for the same text.
    expect(sourceKey('<p>{{title}}</p>')).toBe(
      '9966b47468724f2ef6d08a42d281b29a1cf1b9b841d2aab79dc4a5fa011a42e2',
    );
    expect(sourceKey('<p>{{title}}</p>')).not.toBe(sourceKey('<p>{{title}} </p>'));
  });
});
