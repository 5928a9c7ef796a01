/**
 * A failed delivery, in words safe to log and to show in the delivery log: never a URL path, a
 * token or a response body (any of which may carry a secret). `permanent` failures (the service
 * refused the request itself, e.g. HTTP 400 or 401) are not retried.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly responseCode: number | null = null,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Whether an HTTP status means the request itself is wrong: retrying it would change nothing. */
export const isPermanentStatus = (status: number): boolean => status >= 400 && status < 500 && ![408, 425, 429].includes(status);
