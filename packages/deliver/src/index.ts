/**
 * `@orgreport/deliver`: the delivery stage. Destinations are declared like sections
 * ({@link defineDestination}) and found by the scheme of a target ({@link createDestinations});
 * {@link deliverAll} records every delivery in a ledger ({@link openLedger}) before and after it is
 * sent, so a rerun or a crash never sends twice.
 */

export {
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
export { smtpDestination } from './destinations/smtp.ts';
export { DeliveryPlanError, LedgerError, LedgerLockedError } from './errors.ts';
export { type DeliveryKeyParts, deliveryKey, messageIdOf } from './key.ts';
export {
  type DeliveryStatus,
  LEDGER_VERSION,
  Ledger,
  type LedgerEntry,
  type LedgerEvent,
  type LedgerFileReport,
  LedgerIndex,
  type LedgerReading,
  type LedgerRecord,
  type LedgerState,
  type OpenLedgerOptions,
  openLedger,
  readLedgers,
  type TornLine,
} from './ledger.ts';
export {
  type AnyDestination,
  builtinDestinations,
  createDestinations,
  Destinations,
  type ResolvedTarget,
} from './registry.ts';
