/**
 * orgreport as another team meets it: every package packed (`pnpm pack`, as published), installed
 * with plain `npm install` of the tarballs into a scratch project outside the repository, then used
 * from ESM and from `require()`, type-checked strictly without `skipLibCheck`, the examples run, and
 * the installed `orgreport` bin run from its built JavaScript. The builds come from `pnpm test`'s
 * turbo step (or `pnpm build`).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.ts';
import { startNtfy } from './ntfy.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The published packages, in dependency order. */
const PACKAGES = [
  'packages/api-core',
  'packages/object-store',
  'packages/snapshot',
  'packages/store',
  'packages/emulator',
  'packages/metrics',
  'packages/deliver',
  'packages/watch',
  'templates',
  'packages/render',
  'packages/pipeline',
  'apps/report-cli',
  // Another team's section and another team's destination, each published as its own package.
  'examples/section-weekday',
  'examples/destination-ntfy',
];

let project: string;

const run = promisify(execFile);

/**
 * Runs a command and resolves to its stdout. Asynchronous on purpose: an install takes half a
 * minute, and a blocked test worker misses the test runner's heartbeats.
 */
async function sh(
  file: string,
  args: string[],
  cwd: string,
  timeout = 240_000,
  extraEnv: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await run(file, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    // A user's plain environment (not pnpm's npm_config_* of this workspace), with engines enforced:
    // a dependency that needs a newer Node must fail here, not on a user's machine.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_'))),
      npm_config_engine_strict: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      ...extraEnv,
    },
  });
  return stdout;
}

beforeAll(async () => {
  for (const p of PACKAGES) {
    if (p.startsWith('packages/') && !existsSync(join(root, p, 'dist'))) {
      throw new Error(`${p}/dist is missing: run pnpm build (pnpm test builds first)`);
    }
  }
  const packs = tempDir('orgreport-packs-');
  for (const p of PACKAGES) await sh('pnpm', ['pack', '--pack-destination', packs], join(root, p));
  const tarballs = readdirSync(packs)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(packs, f));
  expect(tarballs).toHaveLength(PACKAGES.length);
  project = tempDir('orgreport-consumer-');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  await sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs],
    project,
  );
  cpSync(join(root, 'examples'), join(project, 'examples'), { recursive: true });
}, 600_000);

describe('the packed packages in a fresh npm project', () => {
  it('install with npm: one @uwdata/flechette, pinned at 2.6.0 by the packages themselves', async () => {
    const tree = JSON.parse(await sh('npm', ['ls', '@uwdata/flechette', '--all', '--json'], project));
    const versions = new Set<string>();
    const walk = (deps: Record<string, { version?: string; dependencies?: object }> | undefined) => {
      for (const [name, dep] of Object.entries(deps ?? {})) {
        if (name === '@uwdata/flechette' && dep.version) versions.add(dep.version);
        walk(dep.dependencies as typeof deps);
      }
    };
    walk(tree.dependencies);
    expect([...versions]).toEqual(['2.6.0']);
  });

  it('run the examples: fetch a month, build the model, render with an overridden partial', async () => {
    const snapshot = join(project, 'snapshot');
    const fetched = await sh('node', ['examples/scripts/fetch-month.mjs', snapshot], project);
    expect(fetched).toMatch(/^Example Org 2026-10: \d+ requests, \d+ user-day rows written to /);
    expect(JSON.parse(readFileSync(join(snapshot, 'manifest.json'), 'utf8')).period.month).toBe('2026-10');

    const figures = await sh('node', ['examples/scripts/build-model.mjs', snapshot], project);
    const activeUsers = figures.split('\n').find((l) => l.startsWith('active_users\t'));
    expect(Number(activeUsers?.split('\t')[1])).toBeGreaterThan(0);

    const html = join(project, 'report.html');
    await sh('node', ['examples/scripts/render-with-partial.mjs', snapshot, html], project);
    const text = readFileSync(html, 'utf8');
    expect(text).toContain('This summary comes from examples/templates/partials/summary.hbs.');
    expect(text).toContain('id="readiness"'); // the other partials stay built in
  }, 180_000);

  it('distribute a month from a Node script with @orgreport/pipeline alone, each delivery once', async () => {
    const script = readFileSync(join(project, 'examples/scripts/distribute-month.mjs'), 'utf8');
    expect(script).toContain("from '@orgreport/pipeline'");
    expect(script).not.toMatch(/@orgreport\/cli|child_process|orgreport monthly|spawn/);
    const folder = join(project, 'distributed');
    const first = await sh('node', ['examples/scripts/distribute-month.mjs', folder], project);
    const sent = Number(/^distributed 2026-10: (\d+) sent, 0 already delivered/m.exec(first)?.[1]);
    expect(sent).toBeGreaterThan(5);
    // Each manager's mail in the demo's outbox, its PDF beside it, and the ledger holding each delivery.
    expect(readdirSync(join(folder, 'outbox'))).toHaveLength(sent);
    expect(readdirSync(folder).filter((f) => f.endsWith('.pdf'))).toHaveLength(sent);
    const second = await sh('node', ['examples/scripts/distribute-month.mjs', folder], project);
    expect(second).toMatch(new RegExp(`^distributed 2026-10: 0 sent, ${sent} already delivered`, 'm'));
  }, 240_000);

  it('work from require() as well as from import', async () => {
    const script =
      "const { OrgClient } = require('@orgreport/api-core');" +
      "const { buildReportModel } = require('@orgreport/metrics');" +
      "const { readSnapshot } = require('@orgreport/snapshot');" +
      "const { syncStore } = require('@orgreport/store');" +
      "const { renderHtml } = require('@orgreport/render');" +
      "const { templatesDir } = require('@orgreport/templates');" +
      'console.log([OrgClient, buildReportModel, readSnapshot, syncStore, renderHtml].map((f) => typeof f).join(","), typeof templatesDir);';
    writeFileSync(join(project, 'require.cjs'), script);
    expect((await sh('node', ['require.cjs'], project)).trim()).toBe(
      'function,function,function,function,function string',
    );
  });

  it('type-check strictly in a consumer, without skipLibCheck', async () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { comparisonPeriod, monthPeriod, OrgClient } from '@orgreport/api-core';
import { startEmulator } from '@orgreport/emulator';
import { buildReportModel, type ReportModel } from '@orgreport/metrics';
import { renderHtml } from '@orgreport/render';
import { fetchSnapshot } from '@orgreport/snapshot';
import { section } from '@orgreport-example/section-weekday';
import { createDestinations, type Destinations } from '@orgreport/deliver';
import { destination } from '@orgreport-example/destination-ntfy';
import { distributeMonth, Reporter, runContext, type Settings, settingsFor } from '@orgreport/pipeline';

export const destinations: Destinations = createDestinations([destination]);
export const topic: string = destination.parse('ntfy:reports').topic;

export async function monthModel(): Promise<ReportModel> {
  const emulator = await startEmulator({ seed: 1, users: 20, today: '2026-11-22' });
  const now = () => new Date('2026-11-22T06:00:00Z');
  const client = new OrgClient({ apiKey: emulator.keys.manager, baseUrl: emulator.baseUrl, now });
  const period = monthPeriod('2026-10', { now });
  const snapshot = await fetchSnapshot(client, { period, comparison: comparisonPeriod(period), now, toolVersion: 'x' });
  await emulator.close();
  const model = buildReportModel(snapshot, { generatedAt: now().toISOString(), sections: [section] });
  const html: string = await renderHtml(model);
  return html.length > 0 ? model : model;
}

export async function distributed(): Promise<number> {
  const settings: Settings = settingsFor({ outDir: 'reports', today: '2026-11-22' });
  const result = await distributeMonth(settings, { demo: true, month: '2026-10' }, runContext(), new Reporter(process.stderr, 'warn'));
  return result.sent.length + result.skipped.length;
}
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(sh('node', [tsc, '-p', project], project)).resolves.toBeDefined();
  }, 120_000);

  it('ship the built-in templates compiled, and lay out the same page without them', async () => {
    // Every built-in template (the layout and each built-in section's partial) is in the table by
    // the SHA-256 of its source, made by the Handlebars the package runs with.
    const render = join(project, 'node_modules/@orgreport/render/dist');
    const table = JSON.parse(readFileSync(join(render, 'precompiled-templates.json'), 'utf8'));
    const fromRender = createRequire(join(render, '..', 'package.json'));
    const handlebars = JSON.parse(
      readFileSync(fromRender.resolve('handlebars/package.json'), 'utf8'),
    ).version;
    expect(table.stamp).toContain(`handlebars ${handlebars} `);
    const hbs = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.hbs'))
        .map((f) => join(dir, f));
    const builtin = [
      ...hbs(join(project, 'node_modules/@orgreport/templates/report')),
      ...hbs(join(project, 'node_modules/@orgreport/metrics/dist')),
    ];
    expect(builtin.length).toBeGreaterThan(10);
    const keys = builtin.map((f) => createHash('sha256').update(readFileSync(f, 'utf8')).digest('hex'));
    expect(Object.keys(table.templates).sort()).toEqual([...new Set(keys)].sort());
    // The page laid out with the table and without it (every template compiled at run time).
    writeFileSync(
      join(project, 'page.mjs'),
      `import { startEmulator } from '@orgreport/emulator';
import { OrgClient, comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { buildReportModel } from '@orgreport/metrics';
import { renderHtml } from '@orgreport/render';
import { fetchSnapshot } from '@orgreport/snapshot';
const emulator = await startEmulator({ seed: 3, users: 30, today: '2026-11-22' });
const now = () => new Date('2026-11-22T06:00:00Z');
const client = new OrgClient({ apiKey: emulator.keys.owner, baseUrl: emulator.baseUrl, appUrl: emulator.appUrl, now });
const period = monthPeriod('2026-10', { now });
const snapshot = await fetchSnapshot(client, { period, comparison: comparisonPeriod(period), now, toolVersion: 'x' });
await emulator.close();
process.stdout.write(await renderHtml(buildReportModel(snapshot, { generatedAt: now().toISOString() })));
`,
    );
    const withTable = await sh('node', ['page.mjs'], project);
    const tableFile = join(render, 'precompiled-templates.json');
    renameSync(tableFile, join(render, 'moved-away.json'));
    try {
      const withoutTable = await sh('node', ['page.mjs'], project);
      expect(withTable.length).toBeGreaterThan(50_000);
      expect(withoutTable).toBe(withTable);
      // And the renderer does use the table: a layout planted in it is what it lays out.
      const layout = readFileSync(
        join(project, 'node_modules/@orgreport/templates/report/layout.hbs'),
        'utf8',
      );
      const planted = fromRender('handlebars').precompile('<p>planted {{model.period.month}}</p>', {
        strict: false,
        preventIndent: true,
      });
      const key = createHash('sha256').update(layout).digest('hex');
      writeFileSync(
        tableFile,
        JSON.stringify({
          ...table,
          templates: { ...table.templates, [key]: { compiled: planted, partials: [] } },
        }),
      );
      expect((await sh('node', ['page.mjs'], project)).trim()).toBe('<p>planted 2026-10</p>');
    } finally {
      renameSync(join(render, 'moved-away.json'), tableFile);
    }
  }, 180_000);

  it('install a working orgreport bin that runs the built JavaScript', async () => {
    const bin = join(project, 'node_modules', '.bin', 'orgreport');
    const version = JSON.parse(readFileSync(join(root, 'apps/report-cli/package.json'), 'utf8')).version;
    expect((await sh(bin, ['--version'], project)).trim()).toBe(version);
    expect(existsSync(join(project, 'node_modules/@orgreport/cli/src'))).toBe(false);
    const out = join(project, 'reports');
    await sh(
      bin,
      ['monthly', '--demo', '--today', '2026-11-22', '--formats', 'json,html', '--out', out, '-q'],
      project,
    );
    expect(readdirSync(out).filter((f) => /^orgreport-.*-2026-10\.(json|html)$/.test(f))).toHaveLength(2);
  }, 180_000);

  it('adds the section of another installed package to a report, from the configuration file', async () => {
    const bin = join(project, 'node_modules', '.bin', 'orgreport');
    writeFileSync(
      join(project, 'orgreport.config.json'),
      JSON.stringify({ sections: ['summary', '@orgreport-example/section-weekday', 'definitions'] }),
    );
    const out = join(project, 'with-section');
    const json = await sh(
      bin,
      ['monthly', '--demo', '--today', '2026-11-22', '--formats', 'html', '--out', out, '--json'],
      project,
    );
    const html = readFileSync(
      JSON.parse(json).outputs.find((o: { kind: string }) => o.kind === 'html').path,
      'utf8',
    );
    const ids = [...html.matchAll(/<section class="section" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['summary', 'weekday', 'definitions']);
    expect(html).toContain('The busiest weekday was');
  }, 180_000);

  it('delivers a report through the destination of another installed package, once', async () => {
    const bin = join(project, 'node_modules', '.bin', 'orgreport');
    // A folder of its own (no config file of the tests above); the packages resolve from the project.
    const cwd = join(project, 'ntfy-run');
    mkdirSync(cwd);
    const out = join(cwd, 'reports');
    const ntfy = await startNtfy();
    try {
      const monthly = (): Promise<string> =>
        sh(
          bin,
          [
            'monthly',
            '--demo',
            '--today',
            '2026-11-22',
            '--formats',
            'json',
            '--destinations',
            '@orgreport-example/destination-ntfy',
            '--deliver',
            'ntfy:reports',
            '--out',
            out,
            '--json',
          ],
          cwd,
          240_000,
          { NTFY_URL: ntfy.url },
        );
      const first = JSON.parse(await monthly());
      expect(ntfy.messages).toHaveLength(1);
      const [received] = ntfy.messages;
      // The report's summary and subject, as the installed renderer composes them from the model.
      const model = first.outputs.find((o: { kind: string }) => o.kind === 'json').path;
      const composed = JSON.parse(
        await sh(
          'node',
          [
            '--input-type=module',
            '-e',
            `import { readFileSync } from 'node:fs';
import { composeMessage } from '@orgreport/render/message';
const m = await composeMessage(JSON.parse(readFileSync(${JSON.stringify(model)}, 'utf8')), []);
console.log(JSON.stringify({ subject: m.subject, summary: m.summary }));`,
          ],
          project,
        ),
      );
      expect(composed.summary.length).toBeGreaterThan(20);
      expect(received).toMatchObject({ topic: 'reports', title: composed.subject });
      expect(received?.message.startsWith(composed.summary.trim())).toBe(true);
      expect(readFileSync(join(out, 'deliveries.jsonl'), 'utf8')).toContain('"target":"ntfy:reports"');

      // The ledger in the output folder knows it was delivered: the second run sends nothing.
      await monthly();
      expect(ntfy.messages).toHaveLength(1);
    } finally {
      await ntfy.close();
    }
  }, 300_000);
});
