import { validationFailed, type ValidationIssue } from '../errors.js';

/** A page request: how many items, and the cursor (the last uid of the previous page). */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** One page of a list, and the cursor of the next page (null on the last one). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Page sizes of a list unless it says otherwise: 50 by default, at most 200. */
export const PAGE_SIZES = { defaultLimit: 50, maxLimit: 200 } as const;

/** Ids are time-ordered (see db/ids.ts), so a cursor is just one of them. */
export const CURSOR_PATTERN = /^[0-9a-z]{26}$/;

/**
 * One issue per query parameter not in `known`: a list refuses them rather than ignoring them,
 * so a misspelt filter never silently lists everything.
 */
export function unknownQueryParameters(query: URLSearchParams, known: readonly string[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const name of new Set(query.keys())) {
    if (!known.includes(name)) issues.push({ path: name, message: `unknown query parameter; known: ${known.join(', ')}` });
  }
  return issues;
}

/** Reads `?limit=&cursor=`; 400 VALIDATION_FAILED naming the parameter when one is not valid. */
export function parsePage(query: URLSearchParams, options: { defaultLimit?: number; maxLimit?: number } = {}): PageRequest {
  const { defaultLimit = PAGE_SIZES.defaultLimit, maxLimit = PAGE_SIZES.maxLimit } = options;
  const issues: ValidationIssue[] = [];
  const rawLimit = query.get('limit');
  let limit = defaultLimit;
  if (rawLimit !== null) {
    limit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit) || limit < 1 || limit > maxLimit) issues.push({ path: 'limit', message: `must be a whole number from 1 to ${maxLimit}` });
  }
  const cursor = query.get('cursor') || undefined;
  if (cursor !== undefined && !CURSOR_PATTERN.test(cursor)) issues.push({ path: 'cursor', message: 'is not a cursor this API returned' });
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  return { limit, cursor };
}

/**
 * The page out of the rows of a list query that fetched `limit + 1` of them in cursor order:
 * the extra row only tells that another page exists, and the next page starts after the last
 * row kept. `view` turns each kept row into an item.
 */
export function toPage<R extends { uid: string }>(rows: readonly R[], limit: number): Page<R>;
export function toPage<R extends { uid: string }, T>(rows: readonly R[], limit: number, view: (row: R) => T): Page<T>;
export function toPage<R extends { uid: string }, T>(rows: readonly R[], limit: number, view?: (row: R) => T): Page<R | T> {
  const page = rows.slice(0, limit);
  return { items: view ? page.map((row) => view(row)) : page, nextCursor: rows.length > limit ? page[page.length - 1].uid : null };
}
