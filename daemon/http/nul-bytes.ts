import type { Middleware } from 'koa';
import { AppError, validationFailed, type ValidationIssue } from '../errors.js';

// A NUL character is never part of a name, slug, e-mail address, token or identifier, and
// PostgreSQL refuses it in text. It is refused at the edge, the same on both databases:
// in a path a 404 (no such thing can exist), in a query or a JSON body a 400 naming where.

const NUL = '\u0000';

/**
 * Mounted after the error middleware: a path holding `%00` answers 404, a query string holding
 * one answers 400 VALIDATION_FAILED, before any route, database or page sees them.
 */
export function refuseNulBytes(isApiPath: (path: string) => boolean): Middleware {
  return async (ctx, next) => {
    if (/%00/.test(ctx.path) || ctx.path.includes(NUL)) {
      if (isApiPath(ctx.path)) throw new AppError('NOT_FOUND', 'No such resource: the path holds a NUL character.');
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found.';
      return;
    }
    if (ctx.querystring.includes('%00') || ctx.querystring.includes(NUL)) {
      const issues: ValidationIssue[] = [];
      for (const [name, value] of new URLSearchParams(ctx.querystring)) {
        if (name.includes(NUL) || value.includes(NUL)) issues.push({ path: name.replaceAll(NUL, '\\u0000'), message: 'must not contain a NUL character' });
      }
      if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
    }
    await next();
  };
}

/**
 * Where a decoded JSON document holds a NUL character (in a string or a key), as validation
 * issues with their paths; empty when there is none. Payload text a check sends to its target
 * (`config.send`) is kept as JSON, so a binary protocol's NUL is allowed there.
 */
export function nulIssues(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL) && !isSentPayload(path)) issues.push({ path: path.join('.'), message: 'must not contain a NUL character' });
    } else if (Array.isArray(current)) {
      current.forEach((child, i) => pending.push({ value: child, path: [...path, String(i)] }));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes(NUL)) issues.push({ path: [...path, key.replaceAll(NUL, '\\u0000')].join('.'), message: 'must not contain a NUL character' });
        else pending.push({ value: child, path: [...path, key] });
      }
    }
  }
  return issues;
}

/** A check's `config.send`: the bytes a TCP, UDP or WebSocket check writes, stored as JSON. */
const isSentPayload = (path: string[]): boolean => path.length >= 2 && path[path.length - 1] === 'send' && path[path.length - 2] === 'config';

/** The value, unless a string or key in it holds a NUL character (400 VALIDATION_FAILED). */
export function refuseNulStrings<T>(value: T): T {
  const issues = nulIssues(value);
  if (issues.length > 0) throw validationFailed(issues, 'The request body holds a NUL character.');
  return value;
}
