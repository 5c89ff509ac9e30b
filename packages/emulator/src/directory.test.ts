import { describe, expect, it } from 'vitest';
import { DIRECTORY_TEAMS, directoryOf } from './directory.ts';
import { createOrganization } from './organization.ts';

describe('directoryOf', () => {
  it('gives each team the repositories of its own kind, each repository to one team', () => {
    const org = createOrganization({ seed: 7, users: 60, repos: 10, today: '2026-11-22' });
    const reposOf = new Map<string, string>();
    for (const entry of directoryOf(org)) reposOf.set(entry.team, entry.repositories);
    const names = (team: string) =>
      (reposOf.get(team) ?? '')
        .split(';')
        .filter(Boolean)
        .map((url) => url.slice(url.lastIndexOf('/') + 1));
    expect(names('Mobile')).toEqual(['mobile-app']);
    expect(names('Web')).toEqual(['web-portal', 'design-system', 'web-portal-2']);
    expect(names('Payments')).toEqual(['billing-service', 'billing-service-2']);
    expect(names('Data')).toEqual(['data-platform', 'search-indexer']);
    expect(names('Platform')).toEqual(['infra']);
    expect(names('Security')).toEqual(['auth-gateway']);
    const all = DIRECTORY_TEAMS.flatMap((t) => names(t.team));
    expect(new Set(all).size).toBe(10);
  });
});
