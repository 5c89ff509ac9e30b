/**
 * Per-user credit limits: `PUT /api/v0/organization/usage/limits/users` in batches of at most 100.
 * One call accounts for every input entry exactly once: updated, rejected by the server, or not sent.
 */
import { ApiConnectionError, BadRequestError, UnprocessableEntityError, ValidationError } from '../errors.ts';
import { type CreditLimitEntry, setCreditLimitsResponseSchema } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import { isEmail } from '../validation.ts';
import type { ClientContext } from './context.ts';

/** Most entries the API accepts in one request. */
export const CREDIT_LIMIT_BATCH_SIZE = 100;

/** An entry the server confirmed, with its position in the input. */
export interface CreditLimitUpdated {
  index: number;
  email: string;
  limit: number;
}

/** An entry the server refused, with its message. */
export interface CreditLimitRejected {
  index: number;
  email: string;
  limit: number;
  error: string;
}

/** An entry that was not sent (or whose request failed), and why. */
export interface CreditLimitNotSent {
  index: number;
  /** The input entry as given. */
  entry: unknown;
  reason: string;
}

/** The outcome of {@link CreditLimits.set}: every input index appears in exactly one list. */
export interface CreditLimitsResult {
  updated: CreditLimitUpdated[];
  rejected: CreditLimitRejected[];
  notSent: CreditLimitNotSent[];
  /** Requests made (one per batch attempted). */
  batches: number;
  /** The request error that stopped sending, if one did. */
  error?: Error;
}

interface Valid extends CreditLimitEntry {
  index: number;
}

/** The `creditLimits` resource of {@link OrgClient}. */
export class CreditLimits {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * Sets credit limits for any number of users (identified by e-mail), sending batches of at most 100.
   * Invalid entries and duplicate e-mails are reported in `notSent` and never sent; same e-mail with the
   * same limit is sent once, with conflicting limits not at all. A 400/422 on one batch fails that batch
   * only; any other request error stops sending and the rest is reported as not sent.
   *
   * @example
   * const result = await client.creditLimits.set([{ email: 'ana@example.com', limit: 5000 }]);
   * result.updated; result.rejected; result.notSent;
   */
  set(entries: ReadonlyArray<CreditLimitEntry>, options?: RequestOptions): Promise<CreditLimitsResult> {
    if (!Array.isArray(entries))
      throw new ValidationError('entries', entries, 'expected an array of { email, limit }');
    return this.#send(entries, options);
  }

  async #send(
    entries: ReadonlyArray<unknown>,
    options: RequestOptions | undefined,
  ): Promise<CreditLimitsResult> {
    const result: CreditLimitsResult = { updated: [], rejected: [], notSent: [], batches: 0 };
    const toSend = this.#select(entries, result);
    for (let start = 0; start < toSend.length; start += CREDIT_LIMIT_BATCH_SIZE) {
      const batch = toSend.slice(start, start + CREDIT_LIMIT_BATCH_SIZE);
      if (result.error) {
        for (const e of batch) {
          result.notSent.push({
            index: e.index,
            entry: entries[e.index],
            reason: `not sent: an earlier batch failed (${result.error.name})`,
          });
        }
        continue;
      }
      result.batches++;
      try {
        const { data } = await this.ctx.transport.request({
          operation: 'creditLimits.set',
          method: 'PUT',
          host: 'api',
          path: '/api/v0/organization/usage/limits/users',
          body: { users: batch.map(({ email, limit }) => ({ email, limit })) },
          schema: setCreditLimitsResponseSchema,
          retry: 'idempotent',
          options,
        });
        const updated = new Map(data.updated.map((u) => [u.email.toLowerCase(), u]));
        const errors = new Map(data.errors.map((e) => [e.email.toLowerCase(), e]));
        for (const e of batch) {
          const key = e.email.toLowerCase();
          const error = errors.get(key);
          const ok = updated.get(key);
          if (error)
            result.rejected.push({ index: e.index, email: e.email, limit: e.limit, error: error.error });
          else if (ok) result.updated.push({ index: e.index, email: e.email, limit: ok.limit });
          else {
            result.rejected.push({
              index: e.index,
              email: e.email,
              limit: e.limit,
              error: "the server's response does not mention this entry",
            });
          }
        }
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        const unsure =
          error instanceof ApiConnectionError ? ' (the server may or may not have applied it)' : '';
        for (const e of batch) {
          result.notSent.push({
            index: e.index,
            entry: entries[e.index],
            reason: `request failed${unsure}: ${error.message}`,
          });
        }
        if (!(error instanceof BadRequestError || error instanceof UnprocessableEntityError))
          result.error = error;
      }
    }
    for (const list of [result.updated, result.rejected, result.notSent])
      list.sort((a, b) => a.index - b.index);
    return result;
  }

  /** Valid, de-duplicated entries in input order; everything else goes to `notSent`. */
  #select(entries: ReadonlyArray<unknown>, result: CreditLimitsResult): Valid[] {
    const valid: Valid[] = [];
    entries.forEach((entry, index) => {
      const reason = invalidReason(entry);
      if (reason) result.notSent.push({ index, entry, reason });
      else valid.push({ ...(entry as CreditLimitEntry), index });
    });
    const byEmail = new Map<string, Valid[]>();
    for (const v of valid) {
      const key = v.email.toLowerCase();
      byEmail.set(key, [...(byEmail.get(key) ?? []), v]);
    }
    const send: Valid[] = [];
    for (const v of valid) {
      const group = byEmail.get(v.email.toLowerCase()) ?? [v];
      const first = group[0] as Valid;
      const others = group.map((g) => `#${g.index}`).join(', ');
      if (group.length === 1) send.push(v);
      else if (group.some((g) => g.limit !== first.limit)) {
        result.notSent.push({
          index: v.index,
          entry: entries[v.index],
          reason: `duplicate e-mail with conflicting limits in entries ${others}; none of them sent`,
        });
      } else if (v === first) send.push(v);
      else {
        result.notSent.push({
          index: v.index,
          entry: entries[v.index],
          reason: `duplicate e-mail: same as entry #${first.index}, which is sent once`,
        });
      }
    }
    return send;
  }
}

function invalidReason(entry: unknown): string | undefined {
  if (!entry || typeof entry !== 'object') return 'expected an object { email, limit }';
  const { email, limit } = entry as { email?: unknown; limit?: unknown };
  if (!isEmail(email))
    return new ValidationError('email', email, 'expected a well-formed e-mail address').message;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) {
    return new ValidationError('limit', limit, 'expected a finite number of credits >= 0').message;
  }
  return undefined;
}
