import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { renderHtml } from '../html.ts';
import { validateTemplateDirs } from '../index.ts';
import { TemplateDirectoryError } from './template-files.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-templates-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A template directory with the given files (relative path -> content). */
function templateDir(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [rel, content] of Object.entries(files)) {
    const file = join(dir, rel);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

async function errorOf(run: () => Promise<unknown>): Promise<TemplateDirectoryError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateDirectoryError);
    return error as TemplateDirectoryError;
  }
  throw new Error('expected a TemplateDirectoryError');
}

describe('validateTemplateDirs', () => {
  it('accepts the built-in templates and a valid override', async () => {
    await expect(validateTemplateDirs([])).resolves.toBeUndefined();
    const ok = templateDir('ok', {
      'partials/cover.hbs': '<section>{{#if model}}{{title}}{{/if}}</section>',
    });
    await expect(validateTemplateDirs([ok])).resolves.toBeUndefined();
  });

  it('names the partial file and the line of a parse error', async () => {
    const dir = templateDir('broken-partial', {
      'partials/cover.hbs':
        '<section>\n<h1>{{title}}</h1>\n{{#if model}}\n<p>{{title}</p>\n{{/if}}\n</section>',
    });
    const file = join(dir, 'partials', 'cover.hbs');
    const error = await errorOf(() => validateTemplateDirs([dir]));
    expect(error.path).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/line 4/);
    // renderHtml raises the same error for the same file.
    const rendered = await errorOf(() =>
      renderHtml(makeFixtureModel(), { templateDirs: [dir], embedFonts: false }),
    );
    expect(rendered.message).toBe(error.message);
  });

  it('names the layout whose block is not closed', async () => {
    const dir = templateDir('broken-layout', {
      'layout.hbs': '<html>\n{{#each model.figures}}\n{{label}}\n</html>',
    });
    const error = await errorOf(() => validateTemplateDirs([dir]));
    expect(error.message).toContain(join(dir, 'layout.hbs'));
    expect(error.message).toMatch(/line \d/);
  });

  it('names a template that refers to a partial nobody provides', async () => {
    const dir = templateDir('missing-partial', { 'partials/summary.hbs': '{{> no-such-partial}}' });
    const error = await errorOf(() => validateTemplateDirs([dir]));
    expect(error.message).toContain(join(dir, 'partials', 'summary.hbs'));
    expect(error.message).toContain('no-such-partial');
  });

  it('accepts a partial the template defines itself with an inline decorator, and renders it', async () => {
    const dir = templateDir('inline-partial', {
      'partials/cover.hbs':
        '{{#*inline "orgName"}}<b class="org">{{name}}</b>{{/inline}}<section>{{> orgName model.organization}}</section>',
    });
    await expect(validateTemplateDirs([dir])).resolves.toBeUndefined();
    const html = await renderHtml(makeFixtureModel(), { templateDirs: [dir], embedFonts: false });
    expect(html).toContain(`<b class="org">${makeFixtureModel().organization.name}</b>`);
    const other = templateDir('inline-elsewhere', {
      'partials/cover.hbs': '{{#*inline "orgName"}}x{{/inline}}',
      'partials/summary.hbs': '{{> orgName}}', // an inline partial is its own template's only
    });
    expect((await errorOf(() => validateTemplateDirs([other]))).message).toContain('orgName');
  });

  it('names a missing directory and an unreadable style file', async () => {
    const missing = await errorOf(() => validateTemplateDirs([join(scratch, 'nope')]));
    expect(missing.message).toMatch(/nope.*does not exist/);
    const dir = templateDir('style-dir', { 'partials/cover.hbs': 'x' });
    // A directory named like a style file cannot be read as one.
    mkdirSync(join(dir, 'styles', 'report.css'), { recursive: true });
    const style = await errorOf(() => validateTemplateDirs([dir]));
    expect(style.message).toContain(join(dir, 'styles', 'report.css'));
    expect(style.message).toContain('cannot be read');
  });
});
