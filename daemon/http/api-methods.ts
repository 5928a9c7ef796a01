import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { AppError } from '../errors.js';

/** The methods the API's routes are declared with (HEAD comes with GET). */
const ROUTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Mounted before the API's routes: `OPTIONS` on a path of the API answers 204 with `Allow`, and any
 * other method no route takes (`TRACE`, `CONNECT`, made-up ones) answers 405 JSON with `Allow`, like
 * a known method the path does not take. An unknown path answers 404 JSON whatever the method.
 */
export function apiMethods(router: Router, prefix: string): Middleware {
  return async (ctx, next) => {
    if (ROUTED.has(ctx.method) || !(ctx.path === prefix || ctx.path.startsWith(`${prefix}/`))) return next();
    const methods = new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods));
    if (methods.size === 0) throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}.`);
    const allow = [...methods, 'OPTIONS'].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    throw new AppError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed here; allowed: ${allow}.`, undefined, { Allow: allow });
  };
}
