/**
 * Sending credit limits one batch (at most 100) at a time, so that what each batch set is known,
 * and kept, before the next one is sent. The client's rules hold across the batches: a batch the
 * server refuses (400, 422) fails alone; any other request error stops the sending and the rest is
 * reported as not sent. So does a batch whose outcome could not be kept.
 */
import {
  CREDIT_LIMIT_BATCH_SIZE,
  type CreditLimitsResult,
  type CreditLimitUpdated,
  type OrgClient,
} from '@orgreport/api-core';
import type { LimitRow } from './parse.ts';

/**
 * Sends `rows` in batches; `accepted` is awaited with each batch's updated entries before the next
 * batch goes. Indexes of the result are places in `rows`.
 */
export async function sendInBatches(
  client: OrgClient,
  rows: readonly LimitRow[],
  accepted: (updated: CreditLimitUpdated[]) => Promise<void>,
): Promise<CreditLimitsResult> {
  const out: CreditLimitsResult = { updated: [], rejected: [], notSent: [], batches: 0 };
  for (let start = 0; start < rows.length; start += CREDIT_LIMIT_BATCH_SIZE) {
    const batch = rows.slice(start, start + CREDIT_LIMIT_BATCH_SIZE);
    if (out.error) {
      batch.forEach(({ email, limit }, i) => {
        out.notSent.push({
          index: start + i,
          entry: { email, limit },
          reason: `not sent: an earlier batch failed (${out.error!.name})`,
        });
      });
      continue;
    }
    const result = await client.creditLimits.set(batch.map(({ email, limit }) => ({ email, limit })));
    const shift = <T extends { index: number }>(items: T[]) =>
      items.map((x) => ({ ...x, index: start + x.index }));
    const updated = shift(result.updated);
    out.updated.push(...updated);
    out.rejected.push(...shift(result.rejected));
    out.notSent.push(...shift(result.notSent));
    out.batches += result.batches;
    if (result.error) out.error = result.error;
    if (updated.length > 0) {
      try {
        await accepted(updated);
      } catch (error) {
        out.error = error as Error;
      }
    }
  }
  return out;
}
