import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFINITIONS } from '@orgreport/metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_STRINGS, makeFixtureModel } from './__fixtures__/report-model.ts';
import { formatFigure } from './format.ts';
import { renderHtml } from './html.ts';
import { TemplateDirectoryError } from './internal/template-files.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-html-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Visible text of an HTML fragment, entities decoded (enough for these checks). */
function text(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<svg[\s\S]*?<\/svg>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&#x60;/g, '`')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('renderHtml', () => {
  const model = makeFixtureModel({ pricing: { pricePerCredit: 0.0001, currency: 'EUR' } });

  it('renders every section with the headline figures, title, author and inline SVG charts', async () => {
    const html = await renderHtml(model, { embedFonts: false });
    for (const id of [
      'summary',
      'usage',
      'adoption',
      'behaviour',
      'tools',
      'productivity',
      'readiness',
      'seats',
      'controls',
      'hook-events',
      'definitions',
      'data-quality',
    ]) {
      expect(html, id).toContain(`id="${id}"`);
    }
    expect(html).toContain('<title>Acme Robotics — AI coding agent report 2026-03</title>');
    expect(html).toContain('<meta name="author" content="Acme Robotics">');
    const visible = text(html);
    const credits = model.figures.find((f) => f.id === 'credits')!;
    expect(visible).toContain(formatFigure(credits));
    expect(visible).toContain('trailing 30 days');
    expect(visible).toContain('n/a');
    expect(visible).toContain('195.71 EUR');
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(8);
  });

  it('says "partial" on the cover and in the title of a partial report', async () => {
    const partial = {
      ...model,
      partial: true,
      period: { ...model.period, end: '2026-03-20', days: 20, partial: true, endsEarly: true },
    };
    const html = await renderHtml(partial, { embedFonts: false });
    expect(html).toContain('report 2026-03 (partial)</title>');
    expect(text(html)).toContain('This is a partial report');
  });

  it("marks each partial week's WAU by what it counts: † the whole ISO week begun before, * the 7 days to a cut-short end", async () => {
    const [first, ...rest] = model.weekly;
    const last = rest.at(-1)!;
    const middle = rest.slice(0, -1);
    const weekly = [
      { ...first!, week: '2026-W09', partial: true, wau: 137, wau_exact: true },
      ...middle.map((w) => ({ ...w, partial: false, wau: 140, wau_exact: true })),
      { ...last, week: '2026-W14', partial: true, wau: 146, wau_exact: false },
    ];
    const visible = text(await renderHtml({ ...model, weekly }, { embedFonts: false }));
    expect(visible).toMatch(/2026-W09 \(partial\) .*? 137† /);
    expect(visible).toMatch(/2026-W14 \(partial\) .*? 146\* /);
    expect(visible).not.toMatch(/140[*†]/);
    expect(visible).toContain('† a week begun before the period counts its whole ISO week');
  });

  it('breaks a setting path between its words and parts, never inside a word, its text escaped', async () => {
    const changed = makeFixtureModel();
    const diff = {
      path: 'restrictApiKeyCreationToManagers',
      kind: 'changed' as const,
      before: 'true',
      after: 'false',
      redacted: false,
      security: true,
    };
    changed.controls.security = [
      { ...diff, revision: 9, updated_at: '2026-03-27T21:06:00.000Z', by: 'Clemmie Grant' },
      {
        ...diff,
        path: 'sandbox.allow<script>1Db',
        revision: 9,
        updated_at: '2026-03-27T21:06:00.000Z',
        by: 'A',
      },
    ];
    const html = await renderHtml(changed, { embedFonts: false });
    expect(html).toContain('restrict<wbr>Api<wbr>Key<wbr>Creation<wbr>To<wbr>Managers');
    expect(html).toContain('sandbox<wbr>.allow&lt;script&gt;1<wbr>Db');
    expect(html).not.toContain('<script>1Db');
  });

  it('embeds the fonts as data: URLs and references nothing remote', async () => {
    const html = await renderHtml(model);
    expect(html).toMatch(/@font-face \{ font-family: 'Report Sans'; src: url\(data:font\/woff;base64,/);
    expect(html).not.toContain('orgreport:font-faces'); // the placeholder is replaced
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).not.toMatch(/url\(["']?https?:/);
  });

  it('escapes hostile data: no markup, no template evaluation, text kept', async () => {
    const html = await renderHtml(makeFixtureModel({ hostile: true }), { embedFonts: false });
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).not.toContain('<img src="https://evil.example');
    expect(html).toContain('&lt;script&gt;window.__pwned&#x3D;1&lt;/script&gt;');
    // Handlebars syntax in data is printed, not evaluated.
    expect(text(html)).toContain('{{constructor.constructor "alert(1)"}}');
    expect(text(html)).toContain(HOSTILE_STRINGS.emoji);
    // Bidi override controls are dropped for display, so "\u202Egnp.exe" cannot pose as "exe.png".
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(text(html)).toContain('gnp.exe user \u200Fעברית\u200F');
    expect(text(html)).toContain('=HYPERLINK(');
    // 10,000-character strings are shortened for display.
    expect(html).not.toContain('L'.repeat(200));
    expect(html).toContain('L'.repeat(150));
  });

  it('lets a user directory override a partial and a style file by file, per render', async () => {
    const dir = join(scratch, 'override');
    mkdirSync(join(dir, 'partials'), { recursive: true });
    mkdirSync(join(dir, 'styles'), { recursive: true });
    writeFileSync(
      join(dir, 'partials', 'cover.hbs'),
      '<section class="cover">CUSTOM COVER {{model.organization.name}}</section>',
    );
    writeFileSync(join(dir, 'styles', 'report.css'), '.custom-style-marker { color: red; }');
    const html = await renderHtml(makeFixtureModel({ hostile: true }), {
      templateDirs: [dir],
      embedFonts: false,
    });
    expect(html).toContain('CUSTOM COVER Acme &lt;script&gt;');
    expect(html).toContain('.custom-style-marker');
    expect(html).not.toContain('.cover-kicker'); // the built-in report.css was replaced
    expect(html).toMatch(/@page \{\s*size: A4/); // print.css was not overridden
    expect(html).toContain('id="usage"'); // other partials stay built-in
    const again = await renderHtml(model, { embedFonts: false });
    expect(again).not.toContain('CUSTOM COVER');
    expect(again).toContain('cover-kicker');
  });

  it('shows every built-in definition whole: none is longer than a paragraph the page shows', async () => {
    const definitions = DEFINITIONS.filter((d) => !d.rule).map((d) => ({ ...d }));
    const page = text(await renderHtml({ ...model, definitions }, { embedFonts: false }));
    for (const d of definitions)
      expect(page.includes(d.text.replace(/\s+/g, ' ')), `${d.id} shown whole`).toBe(true);
  });

  it('shows data-quality details as readable text, not JSON', async () => {
    const html = await renderHtml(model, { embedFonts: false });
    const section = text(html.slice(html.indexOf('id="data-quality"')));
    expect(section).toContain('name: github; spellings: github (1,383), GitHub (588)');
    expect(section).not.toContain('{"name"');
  });

  it('names the clients in words, and one the specification does not list as the API sent it', async () => {
    const unlisted = makeFixtureModel();
    unlisted.clients = [
      ...unlisted.clients,
      { client: 'ide-plugin', avg_dau: 0.5, peak_dau: 1, user_days: 2 },
    ];
    const html = await renderHtml(unlisted, { embedFonts: false });
    const section = text(
      html.slice(html.indexOf('id="adoption"'), html.indexOf('</section>', html.indexOf('id="adoption"'))),
    );
    for (const name of ['Terminal, interactive', 'Web application', 'Command line, automated', 'ide-plugin'])
      expect(section).toContain(name);
    expect(section).not.toContain('terminal-ui');
  });

  it("heads each data-quality finding by its sentence, not by the kind's id (kept for the workbook and the JSON)", async () => {
    const html = await renderHtml(model, { embedFonts: false });
    const section = text(html.slice(html.indexOf('id="data-quality"')));
    expect(model.dataQuality.length).toBeGreaterThan(1);
    for (const finding of model.dataQuality) {
      expect(section).not.toContain(finding.kind);
      expect(section).toContain(finding.message.slice(0, 30));
    }
  });

  it('lists dormant seats as a capped table of e-mail, name and creation day', async () => {
    const many = makeFixtureModel();
    many.seats.dormant_users = Array.from({ length: 30 }, (_, i) => ({
      id: `d${i}`,
      email: `dormant${String(i).padStart(2, '0')}@example.com`,
      name: `Dormant ${i}`,
      created_at: '2026-02-03T10:00:00Z',
      last_active: null,
      last_sign_in: null,
      reclaim: true,
    }));
    many.seats.dormant = 30;
    const section = text(await renderHtml(many, { embedFonts: false }));
    const seats = section.slice(section.indexOf('Dormant seats'));
    expect(seats).toContain('Person Created Last active');
    // Each holder by name, the address beneath it.
    expect(seats).toContain('Dormant 24 dormant24@example.com 2026-02-03');
    expect(seats).not.toContain('dormant25@example.com');
    expect(seats).toContain("and 5 more (see the workbook's Dormant seats sheet)");
  });

  it('names people by name, with the e-mail only where two people share the name', async () => {
    const named = makeFixtureModel();
    const [a, b, c, d] = named.users;
    Object.assign(a!, { name: 'Sam Lee', email: 'sam.lee@example.com' });
    Object.assign(b!, { name: 'Sam Lee', email: 'sam.lee2@example.com' });
    Object.assign(c!, { name: 'Ada Byron', email: 'ada@example.com' });
    // The same person twice (the same e-mail) is not two people.
    Object.assign(d!, { name: 'Ada Byron', email: 'ada@example.com' });
    const page = text(await renderHtml(named, { embedFonts: false }));
    const seats = page.slice(page.indexOf('Top users'));
    expect(seats).toContain('Sam Lee (sam.lee@example.com)');
    expect(seats).toContain('Sam Lee (sam.lee2@example.com)');
    expect(seats).toContain('Ada Byron');
    expect(seats).not.toContain('Ada Byron (');
  });

  it('names a missing or unreadable template directory', async () => {
    await expect(renderHtml(model, { templateDirs: [join(scratch, 'nope')] })).rejects.toThrow(
      TemplateDirectoryError,
    );
    await expect(renderHtml(model, { templateDirs: [join(scratch, 'nope')] })).rejects.toThrow(
      /nope.*does not exist/,
    );
    const file = join(scratch, 'file.txt');
    writeFileSync(file, 'x');
    await expect(renderHtml(model, { templateDirs: [file] })).rejects.toThrow(/is not a directory/);
    if (process.getuid?.() !== 0) {
      const locked = join(scratch, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o000);
      await expect(renderHtml(model, { templateDirs: [locked] })).rejects.toThrow(/cannot be read/);
      chmodSync(locked, 0o755);
    }
  });

  it('renders the same HTML twice for the same model', async () => {
    const a = await renderHtml(model, { embedFonts: false });
    const b = await renderHtml(model, { embedFonts: false });
    expect(a).toBe(b);
  });
});

describe('a model without data', () => {
  it('still renders every section and a workbook-free HTML, with n/a instead of numbers', async () => {
    const full = makeFixtureModel();
    const empty = {
      ...full,
      comparison: null,
      comparisonHasData: false,
      figures: full.figures.map((f) => ({ ...f, value: null, previous: null, change: null })),
      daily: [],
      weekly: [],
      users: [],
      clients: [],
      hookEvents: null,
      dataQuality: [],
      credits: { total: 0, cost: null, byModel: [], byTier: [] },
      tools: { ...full.tools, top: [], mcpServers: [], skills: [], slashCommands: [], hooks: [] },
      readiness: {
        ...full.readiness,
        org_score: null,
        org_level: null,
        repos: [],
        reports: [],
        criteria: [],
        weakest: [],
        unmapped_criteria: [],
      },
      controls: { changes: [], current_revision: null, security: [] },
      seats: {
        seats: 0,
        active_users: 0,
        utilization: null,
        dormant: 0,
        reclaim_candidates: 0,
        dormant_users: [],
      },
    };
    const html = await renderHtml(empty, { embedFonts: false });
    const visible = text(html);
    expect(visible).toContain('No enterprise-control change in the period.');
    expect(visible).toContain('No data-quality finding');
    expect(visible).toContain('No repository has a readiness report.');
    expect(visible).toContain('n/a (no comparison period)');
    expect(html).not.toContain('id="hook-events"');
    expect(visible).not.toMatch(/NaN|Infinity|undefined/);
  });
});
