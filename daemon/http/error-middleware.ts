import type { Middleware } from 'koa';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';

/**
 * Mounted first: renders every error as `{error: {code, message, details?}}`. Unexpected errors
 * are logged with their stack and answered with a bare 500, so nothing internal leaks.
 */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}.`);
      }
    } catch (error) {
      const appError = error instanceof AppError ? error : fromHttpError(error);
      if (!appError) {
        // The route pattern, not the path: a path may carry a credential (an invitation token).
        const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? '(no route)';
        logger.error({ err: error, method: ctx.method, route }, 'unexpected error');
      }
      const rendered = appError ?? new AppError('INTERNAL', 'Something went wrong on our side; it has been logged.');
      ctx.status = rendered.status;
      ctx.body = { error: { code: rendered.code, message: rendered.message, ...(rendered.details ? { details: rendered.details } : {}) } };
      for (const [name, value] of Object.entries(rendered.headers ?? {})) ctx.set(name, value);
    }
  };
}

/** Koa and Node raise errors with an HTTP status for malformed requests; keep those client errors. */
function fromHttpError(error: unknown): AppError | undefined {
  const status = (error as { status?: number; expose?: boolean })?.status;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  if (status === 400 || status === 415) return new AppError('VALIDATION_FAILED', 'The request could not be read.');
  return undefined;
}
