import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTargets, cliDestinations, loadDestinationPackages } from '@orgreport/pipeline/deliver';
import { UsageError } from '@orgreport/pipeline/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from './cli.ts';
import { resolveConfig } from './config/config.ts';
import { memoryIo } from './testing.ts';

// A working folder with installed packages: destinations declared as another team would (plain
// objects: the CLI checks them with defineDestination itself), and packages that get it wrong.
const project = mkdtempSync(join(tmpdir(), 'orgreport-destinations-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
function install(name: string, source: string, exports: unknown = './index.js'): void {
  const dir = join(project, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module', exports }));
  writeFileSync(join(dir, 'index.js'), source);
}
const declaration = (scheme: string) =>
  `{ scheme: '${scheme}', title: 'A ${scheme}', syntax: '${scheme}:NAME', settings: [{ env: '${scheme.toUpperCase()}_TOKEN', help: 'a token', secret: true }], parse: (t) => ({ name: t.slice(${scheme.length + 1}) }), label: (a) => '${scheme}:' + a.name, send: async () => ({ id: 'ok' }) }`;
writeFileSync(join(project, 'package.json'), '{"name":"scratch","private":true}');
install('@team/pager', `export const destination = ${declaration('pager')};`);
install('team-chat', `export const destinations = [${declaration('chat')}, ${declaration('chatops')}];`);
install('team-default', `export default ${declaration('siren')};`);
install('not-a-destination', 'export const answer = 42;');
install('broken-destination', "export const destination = { scheme: 'Bad Scheme!', title: 'Broken' };");
install('empty-list', 'export const destinations = [];');
install('takes-slack', `export const destination = ${declaration('slack')};`);
install('throws-on-load', "throw new Error('cannot start: no config');");
install('import-only', `export const destination = ${declaration('imp')};`, {
  '.': { types: './index.d.ts', require: './missing.cjs', import: './index.js' },
});
install('require-only', 'module.exports = {};', { '.': { require: './index.js' } });
install('entry-missing', 'export {};', { '.': './dist/index.js' });

/** checkTargets of a run in `project` with these destination packages and environment. */
function checkIn(targets: string[], names: string[] = [], env: Record<string, string> = {}) {
  const io = memoryIo({ cwd: project, env });
  const config = resolveConfig(names.length > 0 ? { destinations: names.join(',') } : {}, io);
  return checkTargets(targets, config, { io, secrets: new Set(), onStop: () => () => false });
}

describe('destination packages', () => {
  it('loads the destinations each package exports, in the order named', async () => {
    const names = ['team-chat', '@team/pager', 'team-default', 'import-only'];
    const loaded = await loadDestinationPackages(names, project);
    expect(loaded.map((d) => [d.name, d.destination.scheme])).toEqual([
      ['team-chat', 'chat'],
      ['team-chat', 'chatops'],
      ['@team/pager', 'pager'],
      ['team-default', 'siren'],
      ['import-only', 'imp'],
    ]);
  });

  it('adds them to the built-in destinations, so their targets are known', async () => {
    const destinations = await cliDestinations({ names: ['@team/pager'], cwd: project });
    expect(destinations.destinationFor('pager:platform').label).toBe('pager:platform');
    expect(destinations.get('smtp')).toBeDefined();
    await expect(
      checkIn(['pager:platform', 'cto@example.com'], ['@team/pager'], {
        ORGREPORT_SMTP_URL: 'smtp://127.0.0.1:1',
        ORGREPORT_MAIL_FROM: 'r@acme.test',
      }),
    ).resolves.toBeUndefined();
    // Without the package its targets are unknown, as before.
    await expect(checkIn(['pager:platform'])).rejects.toThrow(/no destination has the scheme pager:/);
    expect((await cliDestinations()).get('pager')).toBeUndefined();
  });

  it('names the package and what is wrong with it', async () => {
    const fails = (names: string[]) => cliDestinations({ names, cwd: project });
    await expect(fails(['@team/nowhere'])).rejects.toThrow(
      `destinations: "@team/nowhere" is not a package installed in ${project}; install it (npm install @team/nowhere) or fix the name`,
    );
    await expect(fails(['not-a-destination'])).rejects.toThrow(
      'destinations: the package "not-a-destination" exports no destination (export const destination = defineDestination({ ... })',
    );
    await expect(fails(['broken-destination'])).rejects.toThrow(
      'destinations: the package "broken-destination": destination "Bad Scheme!": the scheme must be lower-case',
    );
    await expect(fails(['empty-list'])).rejects.toThrow(
      'the package "empty-list" exports "destinations" that is not a list of destinations',
    );
    await expect(fails(['takes-slack'])).rejects.toThrow(
      /^destinations: the package "takes-slack": two destinations have the scheme "slack" \(known: smtp, slack, /,
    );
    await expect(fails(['@team/pager', '@team/pager'])).rejects.toThrow(
      'destinations: "@team/pager" is named twice',
    );
    await expect(fails(['throws-on-load'])).rejects.toThrow(
      'destinations: the package "throws-on-load" could not be loaded: cannot start: no config',
    );
    await expect(fails(['require-only'])).rejects.toThrow(
      'the package "require-only" exports nothing an import can load (its exports map has no "import" or "default" entry for ".")',
    );
    await expect(fails(['entry-missing'])).rejects.toThrow(
      'the package "entry-missing" names ./dist/index.js as its entry, which is missing',
    );
    await expect(fails(['takes-slack'])).rejects.toBeInstanceOf(UsageError);
  });

  it('stops monthly before anything is fetched or written (exit 2), naming the package', async () => {
    const out = join(project, 'reports');
    const io = memoryIo({ cwd: project });
    const code = await run(
      [
        'monthly',
        '--demo',
        '--formats',
        'json',
        '--out',
        out,
        '--destinations',
        '@team/pager,broken-destination',
        '--deliver',
        'pager:platform',
      ],
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toContain('destinations: the package "broken-destination"');
    expect(existsSync(out)).toBe(false);
  });
});
