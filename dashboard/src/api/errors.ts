/** One field problem as the API lists it in `details.issues`. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * An error answer of the API (`{error: {code, message, details}}`), or a failure to reach it
 * (code `NETWORK`). Pages show `message`; forms place `issues` next to their fields.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The field problems of a 400 VALIDATION_FAILED, or none. */
  get issues(): FieldIssue[] {
    const issues = this.details.issues;
    if (!Array.isArray(issues)) return [];
    return issues.filter((i): i is FieldIssue => typeof i?.path === 'string' && typeof i?.message === 'string');
  }

  /** The `details.reason` of a 409 CONFLICT, such as `EMAIL_TAKEN`. */
  get reason(): string | undefined {
    return typeof this.details.reason === 'string' ? this.details.reason : undefined;
  }
}

/** Any thrown value as an ApiError, so pages have one kind of error to show. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'CLIENT', error instanceof Error ? error.message : String(error));
}
