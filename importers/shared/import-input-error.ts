/**
 * The only error a converter throws: the input cannot be read at all (not YAML, not JSON,
 * the wrong tool's export, an API error reply). The message says what was expected, so the
 * API can answer 400 `INVALID_IMPORT_INPUT` with it as is. A problem with one item is never
 * an ImportInputError but a warning.
 */
export class ImportInputError extends Error {
  /** The API error code this error maps to. */
  readonly code = 'INVALID_IMPORT_INPUT' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportInputError';
  }
}
