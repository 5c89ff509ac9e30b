/**
 * Planted events: changes made on purpose to an otherwise natural organization, so that a checker
 * (the alert rules of `orgreport watch`) can be tested against something that happened on a known
 * day. A planted event changes the data the way the real service would show it: a security change
 * is one more revision of the control history (by an admin, at a time of that day), and every later
 * revision carries its value; a credit spike multiplies one user's tokens from a day on, so that
 * `/users`, `/tokens` (its totals, `by_model`, `by_user`) and every other sum of user days agree.
 * Nothing else moves: the natural revisions keep their days, admins and mutations, and every other
 * user's day is the same as without the plant.
 */
import {
  EARLIEST_DATA_DATE,
  type EnterpriseSettings,
  type IsoDate,
  isIsoDate,
  toEpochDay,
} from '@orgreport/api-core';
import type { ModelUsage, UserDayDetail } from './activity.ts';
import { creditsOf } from './activity.ts';

/**
 * A security-relevant setting flipped on a day. `setting` is a dotted path into the enterprise
 * settings (`enableAgentShield`, `sandbox.enabled`, `mcpPolicy.enabled`); without `value` the
 * setting must be a boolean and is flipped, with `value` it is set to it.
 */
export interface SecurityChangePlant {
  kind: 'security-change';
  day: IsoDate;
  setting: string;
  value?: unknown;
  /** Which admin makes the change: 0 the owner (default), 1 or 2 the managers. */
  by?: number;
}

/** One user's credits (every token count of their days) multiplied by `factor` from `from` on. */
export interface CreditSpikePlant {
  kind: 'credit-spike';
  /** The user's index (0-based, as `identity(index)`). */
  user: number;
  from: IsoDate;
  /** The last day multiplied (default: every day from `from` on). */
  until?: IsoDate;
  factor: number;
}

export type Plant = SecurityChangePlant | CreditSpikePlant;

/** The kinds of planted events. */
export const PLANT_KINDS = ['security-change', 'credit-spike'] as const;

/** Checks the plants against the organization's size and days; throws a RangeError naming the plant. */
export function checkPlants(plants: readonly Plant[], users: number, today: IsoDate): void {
  plants.forEach((p, i) => {
    const what = `plant ${i + 1} (${String((p as { kind?: unknown }).kind)})`;
    const day = (value: unknown, name: string) => {
      if (!isIsoDate(value) || value < EARLIEST_DATA_DATE || value >= today) {
        throw new RangeError(
          `${what}: ${name} must be a day from ${EARLIEST_DATA_DATE} to the day before today, got ${String(value)}`,
        );
      }
    };
    if (p.kind === 'security-change') {
      day(p.day, 'day');
      if (
        typeof p.setting !== 'string' ||
        !/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/.test(p.setting)
      ) {
        throw new RangeError(`${what}: setting must be a dotted settings path such as sandbox.enabled`);
      }
      if (p.by !== undefined && !(Number.isInteger(p.by) && p.by >= 0 && p.by <= 2 && p.by < users)) {
        throw new RangeError(`${what}: by must be the index of an admin (0 to ${Math.min(2, users - 1)})`);
      }
    } else if (p.kind === 'credit-spike') {
      if (!Number.isInteger(p.user) || p.user < 0 || p.user >= users) {
        throw new RangeError(`${what}: user must be a user index from 0 to ${users - 1}, got ${p.user}`);
      }
      day(p.from, 'from');
      if (p.until !== undefined) {
        day(p.until, 'until');
        if (p.until < p.from) throw new RangeError(`${what}: until is before from`);
      }
      if (!(Number.isFinite(p.factor) && p.factor > 0)) {
        throw new RangeError(`${what}: factor must be a number above 0, got ${p.factor}`);
      }
    } else {
      throw new RangeError(`${what}: unknown kind (known: ${PLANT_KINDS.join(', ')})`);
    }
  });
}

/** The product of the spike factors that apply to a user's day (1 when none does). */
function spikeFactor(spikes: readonly CreditSpikePlant[], user: number, day: number): number {
  let factor = 1;
  for (const s of spikes) {
    if (
      s.user === user &&
      day >= toEpochDay(s.from) &&
      (s.until === undefined || day <= toEpochDay(s.until))
    ) {
      factor *= s.factor;
    }
  }
  return factor;
}

/**
 * A function that applies the credit spikes to a user's day detail: every token count of each model
 * multiplied (rounded), and the credits computed from them as for any day, so all sums stay exact.
 */
export function creditSpikes(plants: readonly Plant[]): (detail: UserDayDetail) => UserDayDetail {
  const spikes = plants.filter((p): p is CreditSpikePlant => p.kind === 'credit-spike');
  if (spikes.length === 0) return (detail) => detail;
  return (detail) => {
    const factor = spikeFactor(spikes, detail.userIndex, detail.day);
    if (factor === 1) return detail;
    const models = detail.models.map((m): ModelUsage => {
      const input = Math.round(m.input * factor);
      const output = Math.round(m.output * factor);
      const cacheRead = Math.round(m.cacheRead * factor);
      const cacheWrite = Math.round(m.cacheWrite * factor);
      return {
        model: m.model,
        input,
        output,
        cacheRead,
        cacheWrite,
        billable: creditsOf(m.model, input, cacheRead, output),
      };
    });
    return { ...detail, models };
  };
}

/** The settings with the value at `path` flipped (a boolean) or set to `value`. */
export function applySettingChange(
  settings: EnterpriseSettings,
  plant: SecurityChangePlant,
): EnterpriseSettings {
  const out = structuredClone(settings) as Record<string, unknown>;
  const parts = plant.setting.split('.');
  let node: Record<string, unknown> = out;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      throw new RangeError(`planted security change: ${plant.setting} is not a setting of the organization`);
    }
    node = next as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (plant.value !== undefined) {
    node[last] = structuredClone(plant.value);
  } else {
    if (typeof node[last] !== 'boolean') {
      throw new RangeError(
        `planted security change: ${plant.setting} is not a boolean on ${plant.day}; give the value to set`,
      );
    }
    node[last] = !node[last];
  }
  return out as EnterpriseSettings;
}

/** Noon UTC of a planted change's day, or a minute after a natural revision of the same day. */
export function plantedTime(day: IsoDate, after: string | undefined): string {
  const noon = `${day}T12:00:00.000Z`;
  if (after === undefined || after.slice(0, 10) !== day || after < noon) return noon;
  return new Date(Date.parse(after) + 60_000).toISOString();
}
