import type { RecordIncomingTransferInput } from '../ledger/use-cases/record-collection';

/**
 * The banking provider's notifications that money arrived on a CVU, as they reach the service: raw bytes and a
 * signature. The provider decides their format and how they are signed; whoever receives them hands both over.
 */
export interface IncomingTransferNotifications {
  /** The request header (lower case) that carries the provider's signature of the raw body. */
  readonly signatureHeader: string;
  /**
   * The notification as the collection use case takes it. Throws DomainError `unauthorized` when the signature is
   * missing or does not match the bytes, and a ValidationError naming what is wrong when they are no notification.
   */
  read(rawBody: Uint8Array, signature: string | undefined): RecordIncomingTransferInput;
}
