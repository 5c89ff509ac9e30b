import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_SECTIONS } from '@orgreport/metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../errors.ts';
import { loadSections } from './sections.ts';

// A working folder with three installed packages: a section, a module without one, a broken section.
const project = mkdtempSync(join(tmpdir(), 'orgreport-sections-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
function install(name: string, source: string): void {
  const dir = join(project, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module', exports: './index.js' }));
  writeFileSync(join(dir, 'index.js'), source);
}
writeFileSync(join(project, 'package.json'), '{"name":"scratch","private":true}');
install('team-section', "export default { id: 'team', title: 'By team', compute: () => ({ n: 1 }) };");
install('not-a-section', 'export const answer = 42;');
install('broken-section', "export const section = { id: 'Bad Id', title: 'Broken' };");

describe('loadSections', () => {
  it('gives the built-in ones when none are named', async () => {
    await expect(loadSections(undefined, project)).resolves.toBeUndefined();
  });

  it('resolves built-in ids and installed packages from the working folder, in the order named', async () => {
    const sections = await loadSections(['summary', 'team-section', 'cover'], project);
    expect(sections?.map((s) => s.id)).toEqual(['summary', 'team', 'cover']);
    expect(sections?.[0]).toBe(BUILTIN_SECTIONS.find((s) => s.id === 'summary'));
  });

  it('names what is wrong: an unknown name, a package without a section, a broken section, a repeat', async () => {
    const fails = (names: string[]) => loadSections(names, project);
    await expect(fails(['weather'])).rejects.toThrow(
      /"weather" is neither a built-in section \(cover, brief, summary, .*data-quality\) nor a package installed in/,
    );
    await expect(fails(['not-a-section'])).rejects.toThrow(
      'the package "not-a-section" exports no section (export const section = defineSection({ ... }))',
    );
    await expect(fails(['broken-section'])).rejects.toThrow(
      'the package "broken-section": section "Bad Id": the id must be lower-case letters',
    );
    await expect(fails(['usage', 'usage'])).rejects.toThrow('sections: "usage" is named twice');
    await expect(fails(['weather'])).rejects.toBeInstanceOf(UsageError);
  });
});
