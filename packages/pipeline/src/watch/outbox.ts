/**
 * The watch's outbox of an organization, `<store>/_watch/org_id=<id>/outbox.json` (0600; in a
 * bucket, an object replaced only over the version read, emptied rather than removed): the alerts
 * found but not yet known to be delivered. It is written before the state (which remembers an alert
 * as sent, and a security change as seen, so the rules never find it again) and emptied of each
 * alert once all its deliveries went out: a run killed or failing between the two leaves its alerts
 * here, and the next run delivers them (the ledger skips what did arrive). Without routes there is
 * no outbox: alerts are printed only.
 */
import { addDays, type IsoDate } from '@orgreport/api-core/dates';
import { type Alert, FIRED_KEPT_DAYS, RULES } from '@orgreport/watch';
import { z } from 'zod';
import { CliError } from '../errors.ts';
import { orgFile, orgKey } from './inputs.ts';
import { readKept, writeKept } from './kept-files.ts';

const figure = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const alertSchema = z.strictObject({
  rule: z.enum(RULES),
  key: z.string().min(1),
  orgId: z.string(),
  scope: z.strictObject({
    kind: z.enum(['organization', 'cost_center', 'team', 'user']),
    name: z.string(),
  }),
  period: z.string(),
  threshold: z.string().optional(),
  severity: z.enum(['info', 'warning', 'critical']),
  day: z.string(),
  sentence: z.string(),
  figures: z.record(z.string(), figure),
  more: z.strictObject({ sql: z.string().optional(), document: z.string().optional() }),
  person: z.boolean(),
  email: z.string().optional(),
  userId: z.string().optional(),
  new: z.boolean(),
});

const outboxSchema = z.strictObject({
  version: z.literal(1),
  orgId: z.string(),
  alerts: z.array(alertSchema),
});

/** Where an organization's outbox lives. */
export const outboxPath = (store: string, orgId: string) => orgFile(store, '_watch', orgId, 'outbox.json');

/**
 * The alerts an earlier run left undelivered (none without an outbox), those about a day older than
 * the watch remembers sent alerts dropped with a warning.
 */
export async function readOutbox(
  store: string,
  orgId: string,
  today: IsoDate,
  warn: (line: string) => void,
): Promise<Alert[]> {
  const path = outboxPath(store, orgId);
  const text = await readKept(store, orgKey('_watch', orgId, 'outbox.json'));
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = outboxSchema.safeParse(json);
  if (!parsed.success || parsed.data.orgId !== orgId) {
    throw new CliError(
      `${path} is not a watch outbox of organization ${orgId}: move it away (the alerts it held that were not delivered are then not sent)`,
    );
  }
  const oldest = addDays(today, -FIRED_KEPT_DAYS);
  const kept = parsed.data.alerts.filter((a) => a.day >= oldest);
  if (kept.length < parsed.data.alerts.length) {
    warn(
      `${path}: ${parsed.data.alerts.length - kept.length} alert(s) of days before ${oldest} were never delivered; dropped`,
    );
  }
  return kept.map((a) => ({ ...a, new: false }) as Alert);
}

/** Keeps the alerts not yet delivered (none: the outbox is removed; in a bucket, emptied). */
export async function writeOutbox(store: string, orgId: string, alerts: readonly Alert[]): Promise<void> {
  const text = alerts.length === 0 ? null : `${JSON.stringify({ version: 1, orgId, alerts }, null, 2)}\n`;
  await writeKept(store, orgKey('_watch', orgId, 'outbox.json'), text);
}
