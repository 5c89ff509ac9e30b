/**
 * The rollup's inputs, from the store alone (no request): each organization's snapshot of the
 * period, its own report's figures, and the snapshot of all of them together.
 */
import { comparisonPeriod, type MonthPeriod, type Snapshot, userDayRowCount } from '@orgreport/api-core';
import type { OrganizationFigures } from '@orgreport/metrics';
import { UsageError } from '../errors.ts';
import type { Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';

export interface RollupInputs {
  snapshot: Snapshot;
  organizations: OrganizationFigures[];
}

/** Reads every organization of the store for `period` and combines them. */
export async function rollupFromStore(
  store: string,
  period: MonthPeriod,
  config: Settings,
  reporter: Reporter,
): Promise<RollupInputs> {
  const { listOrganizations, readPeriod } = await import('@orgreport/store');
  const { buildReportModel } = await import('@orgreport/metrics');
  const { combineSnapshots } = await import('@orgreport/snapshot');
  // By name: the order a reader looks them up in.
  const listed = (await listOrganizations(store)).sort(
    (a, b) => a.name.localeCompare(b.name) || (a.orgId < b.orgId ? -1 : 1),
  );
  if (listed.length === 0) {
    throw new UsageError(
      `the store ${store} holds no organization yet: fill it with orgreport sync --store ${store}`,
    );
  }
  const comparison = comparisonPeriod(period);
  const snapshots: Snapshot[] = [];
  const organizations: OrganizationFigures[] = [];
  for (const org of listed) {
    const stage = reporter.stage(`read ${org.name}`);
    const snapshot = await readPeriod(store, org.orgId, period, comparison);
    const model = buildReportModel(snapshot, {
      generatedAt: config.now().toISOString(),
      ...(config.pricePerCredit !== undefined && { pricePerCredit: config.pricePerCredit }),
      ...(config.currency !== undefined && { currency: config.currency }),
    });
    snapshots.push(snapshot);
    organizations.push({ id: org.orgId, name: snapshot.manifest.organization.name, figures: model.figures });
    stage.done(
      `${period.month}: ${userDayRowCount(snapshot.userDays)} user-day rows, ${snapshot.orgUsers.length} users`,
    );
  }
  const name = config.organizationName ?? `All organizations (${listed.length})`;
  return { snapshot: combineSnapshots(snapshots, { id: 'rollup', name }), organizations };
}
