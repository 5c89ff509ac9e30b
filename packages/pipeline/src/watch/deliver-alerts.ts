/**
 * The watch's deliveries: each alert due to each target of the routes that receive it, with a key
 * that is the same on every run (`deliveryKey`, kind `alert`: the alert's key as its scope, its
 * period as its month, the target as its recipient), through the delivery step the reports use, so
 * the ledger beside the store holds alerts and documents alike. A target in several routes gets an
 * alert once, as the first of them sees it. The message is the alert's (`alertMessage`) as its
 * route may see it; a destination that stores documents (a folder, a bucket) gets the alert as a
 * JSON document too, since a message without documents leaves nothing there.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Delivery, DeliveryDocument, DeliveryMessage } from '@orgreport/deliver';
import type { Identity } from '@orgreport/metrics';
import type { Alert } from '@orgreport/watch';
import type { AlertRouter, Routing, WatchRoute } from './routes.ts';

/** One alert to one target. */
export interface PlannedAlertDelivery {
  alert: Alert;
  /** The alert as the route may see it. */
  shown: Alert;
  route: WatchRoute;
  target: string;
}

/** The deliveries of the alerts due, and where each alert goes or is kept from. */
export interface AlertPlan {
  deliveries: PlannedAlertDelivery[];
  /** By alert key. */
  routing: Map<string, Routing>;
  /** Alert-route pairs privacy keeps apart. */
  withheld: number;
}

/**
 * Plans the deliveries of the alerts due, in their order, each route's targets in order; `identities`
 * are everyone the alerts might name (withheld where a route may not see them).
 */
export function planAlertDeliveries(
  due: readonly Alert[],
  router: AlertRouter,
  identities: ReadonlyArray<Identity>,
): AlertPlan {
  const plan: AlertPlan = { deliveries: [], routing: new Map(), withheld: 0 };
  for (const alert of due) {
    const routing = router.route(alert);
    plan.routing.set(alert.key, routing);
    plan.withheld += routing.withheld.length;
    const targets = new Set<string>();
    for (const route of routing.routes) {
      const shown = router.alertFor(alert, route, identities);
      for (const target of route.to) {
        if (targets.has(target)) continue;
        targets.add(target);
        plan.deliveries.push({ alert, shown, route, target });
      }
    }
  }
  return plan;
}

/** The key of an alert's delivery to a target. */
export type AlertKeyOf = (parts: {
  month: string;
  recipient: string;
  scope: string;
  formats: string[];
  target: string;
  kind: string;
}) => string;

/** The alert as a document: its message as JSON, for destinations that keep documents. */
function documentText(message: DeliveryMessage): string {
  const { subject, summary, text, facts, meta } = message;
  return `${JSON.stringify({ subject, summary, text, facts, meta }, null, 2)}\n`;
}

/** The name a stored alert has: its day, rule and a digest of its key (`orgreport-alert-2026-09-05-security-3f2a...json`). */
export function alertFileName(alert: Alert): string {
  const digest = createHash('sha256').update(alert.key).digest('hex').slice(0, 12);
  return `orgreport-alert-${alert.day}-${alert.rule}-${digest}.json`;
}

/** A folder of the run's alert documents, made on first use and removed by {@link AlertDocuments.close}. */
export class AlertDocuments {
  #folder: Promise<string> | undefined;

  /** Writes a delivery's document (owner only) and describes it. */
  async write(key: string, filename: string, text: string): Promise<DeliveryDocument> {
    this.#folder ??= mkdtemp(join(tmpdir(), 'orgreport-alerts-'));
    const path = join(await this.#folder, `${key}.json`);
    const bytes = Buffer.from(text, 'utf8');
    await writeFile(path, bytes, { mode: 0o600 });
    return {
      path,
      filename,
      contentType: 'application/json',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
    };
  }

  async close(): Promise<void> {
    const folder = this.#folder;
    this.#folder = undefined;
    if (folder) await rm(await folder, { recursive: true, force: true });
  }
}

/**
 * The deliveries of a plan: keyed, labelled as their destination prints the target, and recorded in
 * the ledger with the alert's kind, key, period, rule and route.
 */
export function alertDeliveries(
  planned: readonly PlannedAlertDelivery[],
  tools: {
    keyOf: AlertKeyOf;
    /** The target as it may be printed (the destination's label: no token, no query string). */
    labelOf: (target: string) => string;
    /** Whether the target's destination stores documents. */
    stores: (target: string) => boolean;
    message: (alert: Alert) => Omit<DeliveryMessage, 'documents'> & { documents: readonly never[] };
    documents: AlertDocuments;
  },
): Delivery[] {
  return planned.map(({ alert, shown, route, target }) => {
    const key = tools.keyOf({
      kind: 'alert',
      month: alert.period,
      recipient: target,
      scope: alert.key,
      formats: [],
      target,
    });
    return {
      key,
      recipient: tools.labelOf(target),
      target,
      record: {
        kind: 'alert',
        month: alert.period,
        scope: alert.key,
        rule: alert.rule,
        route: String(route.number),
      },
      message: async () => {
        const base = tools.message(shown);
        // The month an alert's data is of: where a bucket files it (`<prefix><month>/`).
        const message: DeliveryMessage = {
          ...base,
          meta: { ...base.meta, month: alert.day.slice(0, 7), route: String(route.number) },
        };
        if (!tools.stores(target)) return message;
        const document = await tools.documents.write(key, alertFileName(alert), documentText(message));
        return { ...message, documents: [document] };
      },
    };
  });
}
