/** The error codes of the HTTP API and the status each one answers with. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  INVALID_IMPORT_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_FAILED: 502,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A field path and what is wrong there, as listed in `details.issues`. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * An error meant for the client: its code picks the HTTP status, its message is shown as is.
 * Anything thrown that is not an AppError is answered as a bare 500 and logged.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, such as Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** 400 VALIDATION_FAILED listing every problem. */
export function validationFailed(issues: ValidationIssue[], message = 'The request is not valid.'): AppError {
  const first = issues[0];
  const summary = first && issues.length === 1 ? `${message.replace(/\.$/, '')}: ${first.path ? `${first.path}: ` : ''}${first.message}` : message;
  return new AppError('VALIDATION_FAILED', summary, { issues });
}

export const notFound = (what = 'Not found.'): AppError => new AppError('NOT_FOUND', what);
export const forbidden = (why: string): AppError => new AppError('FORBIDDEN', why);
export const unauthorized = (why = 'Authentication required.'): AppError => new AppError('UNAUTHORIZED', why);
export const conflict = (reason: string, message: string): AppError => new AppError('CONFLICT', message, { reason });
