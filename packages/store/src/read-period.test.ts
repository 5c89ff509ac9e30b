import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { buildReportModel } from '@orgreport/metrics';
import { fetchSnapshot } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPeriod } from './read-period.ts';
import { readState } from './state.ts';
import { openStore } from './store-file.ts';
import { syncStore } from './sync.ts';
import { jsonDifferences } from './testing/compare.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';

let env: Awaited<ReturnType<typeof emulated>>;
beforeAll(async () => {
  env = await emulated();
});
afterAll(() => env.emulator.close());

describe('readPeriod', () => {
  it('gives the report model a fresh fetch of the same days gives', async () => {
    const store = tempStore();
    const result = await syncStore(store, { client: env.client, now, toolVersion: 't', since: '2026-09-01' });
    expect(result.spans.map((s) => s.start)).toEqual(['2026-09-01', '2026-10-01', '2026-11-01']);
    const period = monthPeriod('2026-10', { now });
    const comparison = comparisonPeriod(period);
    const fromStore = await readPeriod(store, result.orgId, period, comparison);
    // The same salt as the store's, so that redacted secrets carry the same fingerprints.
    const salt = (await readState(await openStore(store), result.orgId))?.salt;
    const fresh = await fetchSnapshot(env.client, { period, comparison, now, toolVersion: 't', salt });
    const options = { generatedAt: '2026-11-22T07:00:00.000Z', pricePerCredit: 0.001, currency: 'EUR' };
    const a = buildReportModel(fromStore, options);
    const b = buildReportModel(fresh, options);
    expect(a.source.fetchedAt).toBeTruthy();
    a.source = b.source;
    // Equal, numbers up to floating-point rounding: the store gives the rows in another order, so
    // sums of fractions are taken in another order.
    expect(jsonDifferences(a, b)).toEqual([]);
    expect(a.figures).toEqual(b.figures);

    // The report worked on the read's codes: the text columns are still to be made, and when a
    // reader asks for them (a scope, the snapshot's files), they hold the fetch's values.
    const text = [
      'user_id',
      'user_email',
      'date',
      'primary_model',
      'primary_model_tier',
      'delegation_level',
      'languages',
    ] as const;
    for (const c of text)
      expect(Object.getOwnPropertyDescriptor(fromStore.userDays, c)?.get, c).toBeTypeOf('function');
    const rowsOf = (s: typeof fresh) =>
      s.userDays.user_id
        .map((id, i) => JSON.stringify([id, ...text.slice(1).map((c) => s.userDays[c][i])]))
        .sort();
    expect(rowsOf(fromStore)).toEqual(rowsOf(fresh));
    expect(Object.getOwnPropertyDescriptor(fromStore.userDays, 'user_id')?.value).toBe(
      fromStore.userDays.user_id,
    );
  });
});
