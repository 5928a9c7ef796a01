import type { Middleware } from 'koa';
import { databaseFault, type WriteHealth } from '../db/database-fault.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';

/** How long a caller is asked to wait (Retry-After, seconds) while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Mounted first: renders every error as `{error: {code, message, details?}}`. Unexpected errors
 * are logged with their stack and answered with a bare 500, so nothing internal leaks. A database
 * that does not answer or cannot write (disk full) is no bug: 503 with Retry-After naming the
 * cause, one warning line without a stack, and `writeHealth` learns that writes fail.
 */
export function errorMiddleware(logger: Logger, writeHealth?: WriteHealth): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined && isApiPath(ctx.path)) {
        if (ctx.status === 404) throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}.`);
        if (ctx.status === 405) {
          throw new AppError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow') || 'none'}.`, undefined, {
            Allow: ctx.response.get('Allow'),
          });
        }
      }
    } catch (error) {
      const fault = ctx.req.aborted ? undefined : databaseFault(error);
      if (fault) {
        const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? '(no route)';
        logger.warn({ method: ctx.method, route, cause: fault.cause }, `database unavailable: ${fault.cause}`);
        if (fault.writes) writeHealth?.failed(fault.cause);
        ctx.status = 503;
        ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
        ctx.body = { error: { code: 'UNAVAILABLE', message: `The database is unavailable (${fault.cause}); try again in a few seconds.` } };
        return;
      }
      if (clientWentAway(ctx, error)) {
        // Not a failure of ours: the client closed the connection before the answer was ready.
        logger.debug({ method: ctx.method, route: (ctx as { _matchedRoute?: string })._matchedRoute }, 'client closed the connection');
        return;
      }
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

/** Whether the path is under /api, where every answer is JSON. */
export const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

/** The client hung up (reset, aborted upload): nobody is left to answer. */
function clientWentAway(ctx: { req: { aborted?: boolean; destroyed?: boolean } }, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'EPIPE' || ctx.req.aborted === true;
}

/** Koa and Node raise errors with an HTTP status for malformed requests; keep those client errors. */
function fromHttpError(error: unknown): AppError | undefined {
  const status = (error as { status?: number; expose?: boolean })?.status;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  if (status === 400 || status === 415) return new AppError('VALIDATION_FAILED', 'The request could not be read.');
  return undefined;
}
