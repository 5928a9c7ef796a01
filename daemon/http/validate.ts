import type { z } from 'zod';
import { validationFailed, type ValidationIssue } from '../errors.js';

/** Zod issues as the API's `{path, message}` list. */
export function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** Parses `value` with `schema` or throws 400 VALIDATION_FAILED listing every problem. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what = 'The request body is not valid.'): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(toIssues(result.error), what);
  return result.data;
}
