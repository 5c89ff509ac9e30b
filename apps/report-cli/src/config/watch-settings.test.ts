import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchRules } from '@orgreport/pipeline/watch';
import { DEFAULT_RULES } from '@orgreport/watch';
import { describe, expect, it } from 'vitest';
import { readConfigFile } from './config.ts';

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'orgreport-watch-config-')), 'orgreport.config.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('the config file’s watch key', () => {
  it('fills every rule it leaves out with the default', () => {
    expect(watchRules(undefined)).toEqual(DEFAULT_RULES);
    expect(watchRules(readConfigFile(configFile({ watch: {} })).watch)).toEqual(DEFAULT_RULES);
    const rules = watchRules(
      readConfigFile(
        configFile({
          watch: {
            spike: { multiple: 5, scopes: ['user'] },
            budgets: { organization: 1_000_000, teams: { Platform: 50_000 }, thresholds: [90] },
            stale: { byHourUtc: 7 },
          },
        }),
      ).watch,
    );
    expect(rules.spike).toEqual({ ...DEFAULT_RULES.spike, multiple: 5, scopes: ['user'] });
    expect(rules.budgets).toEqual({
      ...DEFAULT_RULES.budgets,
      organization: 1_000_000,
      teams: { Platform: 50_000 },
      thresholds: [90],
    });
    expect(rules.stale).toEqual({ ...DEFAULT_RULES.stale, byHourUtc: 7 });
    expect(rules.security).toEqual({ enabled: true });
  });

  it('names a misspelt or bad rule setting by its path', () => {
    expect(() => readConfigFile(configFile({ watch: { spike: { multiplier: 4 } } }))).toThrow(
      /orgreport\.config\.json: watch\.spike: unknown setting "multiplier"$/,
    );
    expect(() => readConfigFile(configFile({ watch: { spike: { multiple: 1 } } }))).toThrow(
      /watch\.spike\.multiple: expected a multiple above 1/,
    );
    expect(() =>
      readConfigFile(configFile({ watch: { budgets: { users: { 'not-an-email': 5 } } } })),
    ).toThrow(/watch\.budgets\.users/);
    expect(() => readConfigFile(configFile({ watch: { stale: { byHourUtc: 24 } } }))).toThrow(
      /watch\.stale\.byHourUtc/,
    );
  });

  it('reads routes with their defaults, and names a bad one by its path', () => {
    const read = (routes: unknown) => readConfigFile(configFile({ watch: { routes } })).watch?.routes;
    expect(readConfigFile(configFile({ watch: {} })).watch?.routes).toEqual([]);
    expect(
      read([
        { to: ['cto@acme.test'] },
        { to: ['dir:alerts'], scope: 'team:Platform', people: 'scope', rules: ['spike'] },
      ]),
    ).toEqual([
      { to: ['cto@acme.test'], scope: 'org', people: 'none' },
      { to: ['dir:alerts'], scope: 'team:Platform', people: 'scope', rules: ['spike'] },
    ]);
    expect(() => read([{ to: [] }])).toThrow(/watch\.routes\.0\.to: expected at least one target/);
    expect(() => read([{ to: ['x@acme.test'], scope: 'squad:A' }])).toThrow(
      /watch\.routes\.0\.scope: expected org, team:NAME, cost-center:NAME or manager:EMAIL/,
    );
    expect(() => read([{ to: ['x@acme.test'], people: 'some' }])).toThrow(
      /watch\.routes\.0\.people: expected all, scope or none/,
    );
    expect(() => read([{ to: ['x@acme.test'], rules: ['budgets'] }])).toThrow(
      /watch\.routes\.0\.rules\.0: expected rules among security, budget, spike, stale/,
    );
    expect(() => read([{ to: ['x@acme.test'], channel: '#eng' }])).toThrow(
      /watch\.routes\.0: unknown setting "channel"/,
    );
  });
});
