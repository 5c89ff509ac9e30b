/**
 * `@orgreport/deliver`: the delivery stage. Destinations are declared like sections
 * ({@link defineDestination}); every delivery is recorded in a ledger before and after it is sent,
 * so a rerun or a crash never sends twice.
 */
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
