import type { DeliveryMessage, DestinationDeclaration } from '@orgreport/deliver';

/** An ntfy target, `ntfy:TOPIC`, read. */
export interface NtfyAddress {
  topic: string;
}

/** The variable holding the ntfy server's address. */
export declare const NTFY_URL_ENV: 'NTFY_URL';
/** The variable holding the access token of a protected topic (a secret). */
export declare const NTFY_TOKEN_ENV: 'NTFY_TOKEN';
/** The server when NTFY_URL is unset. */
export declare const NTFY_DEFAULT_URL: 'https://ntfy.sh';
/** The longest body ntfy keeps as a message's text, in bytes. */
export declare const NTFY_MESSAGE_LIMIT_BYTES: 4096;

/** The notification's text: the summary, then a line per figure, cut at `limit` bytes of UTF-8. */
export declare function ntfyBody(message: DeliveryMessage, limit?: number): string;

/** The `ntfy` destination: `ntfy:TOPIC`, the server in NTFY_URL, a token in NTFY_TOKEN. */
export declare const destination: DestinationDeclaration<NtfyAddress>;
export default destination;
