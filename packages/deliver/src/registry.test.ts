/** Targets find their destination by scheme, or by the destination that claims them. */
import { describe, expect, it } from 'vitest';
import { createDestinations, DestinationError, defineDestination } from './index.ts';

const pager = defineDestination<string>({
  scheme: 'pager',
  title: 'Pager',
  syntax: 'pager:TEAM',
  settings: [],
  parse: (target) => {
    const team = target.slice('pager:'.length);
    if (!/^[a-z]+$/.test(team)) throw new DestinationError('a team is lower-case letters');
    return team;
  },
  label: (team) => `pager:${team}`,
  send: async () => ({ id: 'paged' }),
});

describe('createDestinations', () => {
  const destinations = createDestinations([pager]);

  it('gives plain addresses and mailto: to smtp, dir: to dir, another scheme to its destination', () => {
    const mail = destinations.destinationFor('cto@example.com');
    expect([mail.destination.scheme, mail.address, mail.label]).toEqual([
      'smtp',
      'cto@example.com',
      'cto@example.com',
    ]);
    const mailto = destinations.destinationFor('mailto:cfo@example.com');
    expect([mailto.destination.scheme, mailto.address]).toEqual(['smtp', 'cfo@example.com']);
    const dir = destinations.destinationFor('dir:reports/2026-10');
    expect([dir.destination.scheme, dir.address, dir.destination.stores]).toEqual([
      'dir',
      'reports/2026-10',
      true,
    ]);
    expect(destinations.destinationFor('pager:platform').label).toBe('pager:platform');
    // A scheme alone is its destination with its default settings: Teams' default variable.
    const teams = destinations.destinationFor('teams');
    expect([teams.destination.scheme, teams.label]).toEqual(['teams', 'teams:ORGREPORT_TEAMS_WEBHOOK_URL']);
  });

  it('refuses an unknown scheme, listing the known schemes and how their targets are written', () => {
    expect(() => destinations.destinationFor('matrix:#eng-leads')).toThrow(DestinationError);
    try {
      destinations.destinationFor('matrix:#eng-leads');
    } catch (error) {
      const text = (error as Error).message;
      expect(text).toContain('no destination has the scheme matrix');
      expect(text).toContain('slack (Slack channel)');
      expect(text).toContain('smtp (E-mail): an e-mail address (cto@example.com) or mailto:ADDRESS');
      expect(text).toContain('dir (Folder): dir:PATH');
      expect(text).toContain('pager (Pager): pager:TEAM');
    }
    expect(() => destinations.destinationFor('not an address')).toThrow(
      /no destination takes "not an address"/,
    );
  });

  it('refuses a target its destination cannot read, saying why and how it is written', () => {
    expect(() => destinations.destinationFor('pager:Platform 1')).toThrow(
      'Pager cannot read "pager:Platform 1": a team is lower-case letters (written pager:TEAM)',
    );
    expect(() => destinations.destinationFor('mailto:nobody')).toThrow(/not an e-mail address/);
    expect(() => destinations.destinationFor('dir:')).toThrow(/the folder is missing/);
    // A reason that shows the syntax already does not get it twice.
    const hint = 'webhook:https://host/path (http: only for loopback hosts)';
    let message = '';
    try {
      destinations.destinationFor('webhook:http://hooks.example.com/x');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `Signed webhook cannot read "webhook:http://hooks.example.com/x": webhook target: http: is accepted only for loopback hosts (127.0.0.1, ::1, localhost); use https:; write ${hint}`,
    );
  });

  it('refuses two destinations of one scheme', () => {
    expect(() => createDestinations([pager, pager])).toThrow(/two destinations have the scheme "pager"/);
    expect(() => createDestinations([{ ...pager, scheme: 'dir' }])).toThrow(DestinationError);
  });
});
