import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumOf } from '@orgreport/pipeline/report';
import { requireConnection } from '@orgreport/pipeline/settings';
import { defaultChromium } from '@orgreport/render/chromium';
import { describe, expect, it } from 'vitest';
import { configFileSchema, configJsonSchema, resolveConfig } from './config.ts';

const now = () => new Date('2026-11-22T15:30:00Z');

function configFile(content: unknown): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'orgreport-config-'));
  const path = join(dir, 'orgreport.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return { dir, path };
}

describe('resolveConfig', () => {
  it('takes a flag over the environment over the config file', () => {
    const { path } = configFile({
      baseUrl: 'http://file.example',
      appUrl: 'http://app-file.example',
      smtpUrl: 'smtp://file:25',
    });
    const env = { ORGREPORT_BASE_URL: 'http://env.example', ORGREPORT_SMTP_URL: 'smtp://env:25' };
    const config = resolveConfig({ config: path, baseUrl: 'http://flag.example/' }, { env, now, cwd: '/' });
    expect(config.baseUrl).toBe('http://flag.example');
    expect(config.smtpUrl).toBe('smtp://env:25');
    expect(config.appUrl).toBe('http://app-file.example');
  });

  it('uses defaults and the clock when nothing is set', () => {
    const config = resolveConfig({}, { env: {}, now, cwd: '/work' });
    expect(config).toMatchObject({
      outDir: '/work/reports',
      formats: ['pdf', 'xlsx', 'html', 'json'],
      logLevel: 'info',
      mailTo: [],
      today: '2026-11-22',
    });
    expect(config.now().toISOString()).toBe('2026-11-22T15:30:00.000Z');
  });

  it('replaces the clock with --today', () => {
    const config = resolveConfig({ today: '2026-03-05' }, { env: {}, now, cwd: '/' });
    expect(config.today).toBe('2026-03-05');
    expect(config.now().toISOString()).toBe('2026-03-05T00:00:00.000Z');
    expect(() => resolveConfig({ today: '2026-02-30' }, { env: {}, now, cwd: '/' })).toThrow(
      /--today: expected a real calendar day/,
    );
  });

  it('names the environment variable of a bad value', () => {
    expect(() => resolveConfig({}, { env: { ORGREPORT_BASE_URL: 'ftp://x' }, now, cwd: '/' })).toThrow(
      /ORGREPORT_BASE_URL: expected an http\(s\) URL \(got "ftp:\/\/x"\)/,
    );
    expect(() => resolveConfig({}, { env: { ORGREPORT_LOG_LEVEL: 'loud' }, now, cwd: '/' })).toThrow(
      /ORGREPORT_LOG_LEVEL/,
    );
    expect(() => resolveConfig({ formats: 'pdf,docx' }, { env: {}, now, cwd: '/' })).toThrow(
      /--formats: expected formats among/,
    );
    expect(() => resolveConfig({ email: 'a@example.com,nobody' }, { env: {}, now, cwd: '/' })).toThrow(
      /--email: expected an e-mail/,
    );
  });

  it('names the config file and the key, and refuses unknown keys', () => {
    const bad = configFile({ smtpUrl: 'http://mail' });
    expect(() => resolveConfig({ config: bad.path }, { env: {}, now, cwd: '/' })).toThrow(
      `config file ${bad.path}: smtpUrl: expected an smtp:// or smtps:// URL`,
    );
    const typo = configFile({ baseURL: 'http://x.example' });
    expect(() => resolveConfig({ config: typo.path }, { env: {}, now, cwd: '/' })).toThrow(
      /unknown setting "baseURL"/,
    );
    const notJson = configFile('{ baseUrl: ');
    expect(() => resolveConfig({ config: notJson.path }, { env: {}, now, cwd: '/' })).toThrow(
      /not valid JSON/,
    );
    expect(() => resolveConfig({ config: '/nonexistent/c.json' }, { env: {}, now, cwd: '/' })).toThrow(
      /config file \/nonexistent\/c\.json: cannot be read \(ENOENT\)/,
    );
  });

  it('reads the config file named by ORGREPORT_CONFIG and resolves its paths against its own folder', () => {
    const { dir, path } = configFile({
      out: 'monthly',
      hookLog: 'hooks.jsonl',
      formats: 'pdf, json',
      email: ['a@example.com'],
    });
    const config = resolveConfig({}, { env: { ORGREPORT_CONFIG: path }, now, cwd: '/elsewhere' });
    expect(config.outDir).toBe(join(dir, 'monthly'));
    expect(config.hookLog).toBe(join(dir, 'hooks.jsonl'));
    expect(config.formats).toEqual(['pdf', 'json']);
    expect(config.mailTo).toEqual(['a@example.com']);
  });

  it('never shows the API key in a message', () => {
    const { path } = configFile({ apiKey: '   ' });
    let message = '';
    try {
      resolveConfig({ config: path }, { env: {}, now, cwd: '/' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/apiKey: must not be empty/);
    expect(message).not.toContain('got');
  });

  it('orders the log level: --verbose, --quiet, ORGREPORT_LOG_LEVEL, file', () => {
    const { path } = configFile({ logLevel: 'warn' });
    const sources = { env: { ORGREPORT_LOG_LEVEL: 'error' }, now, cwd: '/' };
    expect(resolveConfig({ config: path }, { ...sources, env: {} }).logLevel).toBe('warn');
    expect(resolveConfig({ config: path }, sources).logLevel).toBe('error');
    expect(resolveConfig({ config: path, quiet: true }, { ...sources, env: {} }).logLevel).toBe('error');
    expect(resolveConfig({ config: path, verbose: true }, sources).logLevel).toBe('debug');
  });
});

describe('chromium', () => {
  it('is the default Chromium unless ORGREPORT_CHROMIUM or the config file names another, resolved like a path', () => {
    const { path, dir } = configFile({ chromium: 'bin/chrome' });
    // Unset: the renderer's default, resolved where a PDF is made.
    expect(resolveConfig({}, { env: {}, now, cwd: '/' }).chromium).toBeUndefined();
    expect(chromiumOf(resolveConfig({}, { env: {}, now, cwd: '/' }))).toBe(defaultChromium());
    expect(resolveConfig({ config: path }, { env: {}, now, cwd: '/' }).chromium).toBe(
      join(dir, 'bin/chrome'),
    );
    const env = { ORGREPORT_CHROMIUM: 'chrome' };
    expect(resolveConfig({ config: path }, { env, now, cwd: '/opt' }).chromium).toBe('/opt/chrome');
  });
});

describe('maxRetries', () => {
  it('takes --max-retries over ORGREPORT_MAX_RETRIES over the config file, and is unset by default', () => {
    const { path } = configFile({ maxRetries: 1 });
    const env = { ORGREPORT_MAX_RETRIES: '2' };
    expect(resolveConfig({ config: path, maxRetries: '3' }, { env, now, cwd: '/' }).maxRetries).toBe(3);
    expect(resolveConfig({ config: path }, { env, now, cwd: '/' }).maxRetries).toBe(2);
    expect(resolveConfig({ config: path }, { env: {}, now, cwd: '/' }).maxRetries).toBe(1);
    expect(resolveConfig({}, { env: {}, now, cwd: '/' }).maxRetries).toBeUndefined();
    expect(resolveConfig({ maxRetries: '0' }, { env: {}, now, cwd: '/' }).maxRetries).toBe(0);
  });

  it('refuses anything but a whole number from 0 to 10, naming where it came from', () => {
    const at =
      (flags: { maxRetries?: string; config?: string }, env: Record<string, string> = {}) =>
      () =>
        resolveConfig(flags, { env, now, cwd: '/' });
    expect(at({ maxRetries: '11' })).toThrow(
      '--max-retries: expected a whole number from 0 to 10 (got "11")',
    );
    expect(at({ maxRetries: '1.5' })).toThrow(/--max-retries: expected a whole number from 0 to 10/);
    expect(at({}, { ORGREPORT_MAX_RETRIES: 'many' })).toThrow(
      'ORGREPORT_MAX_RETRIES: expected a whole number from 0 to 10 (got "many")',
    );
    expect(at({}, { ORGREPORT_MAX_RETRIES: '-1' })).toThrow(/ORGREPORT_MAX_RETRIES: expected a whole number/);
    const { path } = configFile({ maxRetries: 2.5 });
    expect(at({ config: path })).toThrow(
      /config file .*orgreport\.json: maxRetries: expected a whole number/,
    );
  });
});

describe('requireConnection', () => {
  it('asks for the address and the key, with the setting names', () => {
    const base = resolveConfig({}, { env: {}, now, cwd: '/' });
    expect(() => requireConnection(base)).toThrow(/ORGREPORT_BASE_URL/);
    const noKey = resolveConfig({}, { env: { ORGREPORT_BASE_URL: 'http://127.0.0.1:1' }, now, cwd: '/' });
    expect(() => requireConnection(noKey)).toThrow(expect.objectContaining({ exitCode: 3 }));
    const ok = resolveConfig(
      {},
      {
        env: { ORGREPORT_BASE_URL: 'http://127.0.0.1:1', ORGREPORT_API_KEY: 'test-key-owner' },
        now,
        cwd: '/',
      },
    );
    expect(requireConnection(ok)).toEqual({
      apiKey: 'test-key-owner',
      baseUrl: 'http://127.0.0.1:1',
      appUrl: 'http://127.0.0.1:1',
    });
  });
});

describe('config file discovery and schema', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'orgreport-find-'));

  it('finds orgreport.config.yaml in the working folder, then config.json in the user config folder', () => {
    const cwd = dir();
    const home = dir();
    mkdirSync(join(home, 'orgreport'));
    writeFileSync(join(home, 'orgreport', 'config.json'), JSON.stringify({ formats: ['json'] }));
    const env = { XDG_CONFIG_HOME: home };
    const fromUser = resolveConfig({}, { env, now, cwd });
    expect(fromUser.formats).toEqual(['json']);
    expect(fromUser.configFile).toBe(join(home, 'orgreport', 'config.json'));

    writeFileSync(join(cwd, 'orgreport.config.yaml'), 'formats:\n  - html\n  - xlsx\nmaxRetries: 1\n');
    const fromCwd = resolveConfig({}, { env, now, cwd });
    expect(fromCwd.formats).toEqual(['html', 'xlsx']);
    expect(fromCwd.maxRetries).toBe(1);

    const named = configFile({ formats: ['pdf'] });
    expect(resolveConfig({ config: named.path }, { env, now, cwd }).formats).toEqual(['pdf']);
    // Without HOME or XDG_CONFIG_HOME and nothing in the folder: no file, the defaults.
    expect(resolveConfig({}, { env: {}, now, cwd: dir() }).configFile).toBeUndefined();
  });

  it('names a broken YAML file and a wrong key in it', () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'orgreport.config.yml'), 'formats: [pdf\n');
    expect(() => resolveConfig({}, { env: {}, now, cwd })).toThrow(
      new RegExp(`config file ${join(cwd, 'orgreport.config.yml')}: not valid YAML`),
    );
    writeFileSync(join(cwd, 'orgreport.config.yml'), 'pricePerCredit: cheap\n');
    expect(() => resolveConfig({}, { env: {}, now, cwd })).toThrow(
      /pricePerCredit: Invalid input: expected number/,
    );
  });

  it('publishes a JSON Schema that is the one generated from the zod schema', () => {
    const published = JSON.parse(
      readFileSync(new URL('../../orgreport.config.schema.json', import.meta.url), 'utf8'),
    );
    expect(published).toEqual(configJsonSchema());
    expect(Object.keys(published.properties)).toEqual(Object.keys(configFileSchema.shape));
    expect(published.additionalProperties).toBe(false);
  });
});
