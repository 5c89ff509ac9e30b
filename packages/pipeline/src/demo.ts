/**
 * What `--demo` brings besides the emulated organization: its people directory (teams, cost centers,
 * a hierarchy of managers, a few people who moved team) and prices, so that a newcomer's first
 * report has Teams, Chargeback and costs, and a distribution has managers to send to. Settings the
 * user gave win over them.
 */
import type { PeopleDirectory } from '@orgreport/metrics';
import { DEMO_SEED } from './connect.ts';
import type { ReportSettings } from './settings.ts';

/** Prices of the demo organization: about USD 25 a month for an active user, and a seat at USD 19. */
export const DEMO_PRICES = { pricePerCredit: 0.000004, pricePerSeat: 19, currency: 'USD' } as const;

/** The demo organization's directory, as `orgreport emulator --directory` writes it. */
export async function demoDirectory(users: number, today: string): Promise<PeopleDirectory> {
  const { createOrganization, directoryOf } = await import('@orgreport/emulator');
  const org = createOrganization({ seed: DEMO_SEED, users, today });
  return {
    source: 'the demo organization\u2019s directory',
    people: directoryOf(org).map((e) => ({
      email: e.email,
      team: e.team,
      costCenter: e.costCenter,
      manager: e.manager || null,
      repositories: e.repositories.split(';').filter(Boolean),
      attributes: {
        location: e.location,
        repositories: e.repositories,
        cost_center_owner: e.costCenterOwner,
      },
      validFrom: e.validFrom || null,
    })),
  };
}

/** The configuration of a demo run: the demo's prices where none is set. */
export function withDemoPrices<
  S extends Pick<ReportSettings, 'pricePerCredit' | 'pricePerSeat' | 'currency'>,
>(config: S): S {
  const priced = config.pricePerCredit !== undefined || config.pricePerSeat !== undefined;
  return priced ? config : { ...config, ...DEMO_PRICES, currency: config.currency ?? DEMO_PRICES.currency };
}
