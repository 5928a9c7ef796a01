import { validationFailed, type ValidationIssue } from '../errors.js';

/** A page request: how many items, and the cursor (the last uid of the previous page). */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Ids are time-ordered (see db/ids.ts), so a cursor is just one of them. */
const CURSOR = /^[0-9a-z]{26}$/;

/** Reads `?limit=&cursor=`; 400 VALIDATION_FAILED naming the parameter when one is not valid. */
export function parsePage(query: URLSearchParams, options: { defaultLimit?: number; maxLimit?: number } = {}): PageRequest {
  const { defaultLimit = 50, maxLimit = 200 } = options;
  const issues: ValidationIssue[] = [];
  const rawLimit = query.get('limit');
  let limit = defaultLimit;
  if (rawLimit !== null) {
    limit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit) || limit < 1 || limit > maxLimit) issues.push({ path: 'limit', message: `must be a whole number from 1 to ${maxLimit}` });
  }
  const cursor = query.get('cursor') || undefined;
  if (cursor !== undefined && !CURSOR.test(cursor)) issues.push({ path: 'cursor', message: 'is not a cursor this API returned' });
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  return { limit, cursor };
}
