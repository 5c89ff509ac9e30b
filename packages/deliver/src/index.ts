/**
 * `@orgreport/deliver`: the delivery stage. Destinations are declared like sections
 * ({@link defineDestination}) and found by the scheme of a target ({@link createDestinations});
 * {@link deliverAll} records every delivery in a ledger ({@link openLedger}) before and after it is
 * sent, so a rerun or a crash never sends twice.
 *
 * @module @orgreport/deliver
 */

export {
  checkDeliverySettings,
  type DeliverOptions,
  type DeliverResult,
  type DeliveryEvent,
  type DeliveryRef,
  deliverAll,
} from './deliver.ts';
export {
  type Delivery,
  type DeliveryDocument,
  DeliveryError,
  type DeliveryMessage,
  type DestinationDeclaration,
  DestinationError,
  type DestinationSetting,
  defineDestination,
  PermanentDeliveryError,
  RetryableDeliveryError,
  type SendContext,
  type SentReceipt,
} from './destination.ts';
export { dirDestination } from './destinations/dir.ts';
export { type S3Address, s3 } from './destinations/s3.ts';
export { SLACK_API_URL_ENV, SLACK_TOKEN_ENV, type SlackAddress, slack } from './destinations/slack.ts';
export { smtpDestination } from './destinations/smtp.ts';
export { TEAMS_WEBHOOK_URL_ENV, type TeamsAddress, teams } from './destinations/teams.ts';
export {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_SECRET_ENV,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookAddress,
  type WebhookOptions,
  type WebhookPayload,
  webhook,
  webhookDestination,
} from './destinations/webhook.ts';
export { DeliveryPlanError, LedgerConfigError, LedgerError, LedgerLockedError } from './errors.ts';
export { type DeliveryKeyParts, deliveryKey, messageIdOf, normalTarget } from './key.ts';
export {
  Ledger,
  type LedgerFileReport,
  type LedgerReading,
  type OpenLedgerOptions,
  openLedger,
  readLedgers,
} from './ledger.ts';
export {
  type DeliveryLedger,
  type DeliveryStatus,
  LEDGER_VERSION,
  type LedgerEntry,
  type LedgerEvent,
  LedgerIndex,
  type LedgerRecord,
  type LedgerState,
  ledgerEntry,
  type TornLine,
} from './ledger-entries.ts';
export { POSTGRES_SCHEMA_VERSION, printableLedgerUrl } from './ledgers/postgres.ts';
export { isSharedLedgerUrl, type OpenSharedLedgerOptions, openSharedLedger } from './open-shared-ledger.ts';
export {
  type AnyDestination,
  builtinDestinations,
  createDestinations,
  Destinations,
  type ResolvedTarget,
} from './registry.ts';
export {
  type DeliveryClaim,
  type DeliveryRecord,
  type RecordStore,
  SharedLedger,
  type SharedLedgerOptions,
  type VersionedRecord,
} from './shared-ledger.ts';
