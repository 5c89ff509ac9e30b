/** What went wrong with object storage, and whose it is to fix. */
export class ObjectStoreError extends Error {
  override readonly name = 'ObjectStoreError';
  constructor(
    /** `input`: the configuration (a URL, a bucket, credentials) is to be fixed; `failure`: the service failed. */
    readonly kind: 'input' | 'failure',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
