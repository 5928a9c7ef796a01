import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AuthContext, OrgAuthContext } from '../access/auth-context.js';
import { authenticateRequest } from '../access/authenticate.js';
import { authorize as authorizeAction } from '../access/authorize.js';
import { requireSession } from '../access/session-only.js';
import type { AppDeps } from '../deps.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import { isOrgPermission, isStateChanging, type RouteSpec } from './route.js';
import { readJsonBody, readRawBody } from './body.js';
import { jsonInTurns } from './json-in-turns.js';
import { parseOrThrow } from './validate.js';

/**
 * Mounts a route table. Every handler is wrapped with, in order: authentication, the forced
 * password change, the token's scope, and the route's permission (for org routes, the member's
 * role read from the database now). Only then is the body read and validated.
 */
export function mountRoutes(router: Router, routes: RouteSpec[], deps: AppDeps): void {
  for (const spec of routes) {
    router.register(spec.path, [spec.method], async (ctx: Context) => {
      const auth = await authorize(deps, ctx, spec);
      const body = spec.rawBodyLimit ? await readRawBody(ctx, spec.rawBodyLimit) : spec.body ? parseOrThrow(spec.body, await readJsonBody(ctx)) : undefined;
      const result = await spec.handler({
        ctx,
        deps,
        // The route's kind decides what `auth` is: undefined for public routes, with org and role for org routes.
        auth: auth as AuthContext & OrgAuthContext,
        params: (ctx as Context & { params: Record<string, string> }).params ?? {},
        query: new URLSearchParams(ctx.querystring),
        body,
      });
      if (ctx.body !== undefined || ctx.status === 302) return;
      if (result === undefined) ctx.status = 204;
      else {
        ctx.status = spec.status ?? 200;
        // A long answer (an import's 10,000 entries) is written in turns; Koa takes a stream for bytes, so it is named JSON.
        const body = jsonInTurns(result);
        if (body instanceof Readable) ctx.type = 'application/json';
        ctx.body = body;
      }
    });
  }
}

async function authorize(deps: AppDeps, ctx: Context, spec: RouteSpec): Promise<AuthContext | undefined> {
  // A public route never authenticates: a stale or foreign Authorization header changes nothing.
  if (spec.permission === 'public') return undefined;
  const slug = isOrgPermission(spec.permission) ? (ctx as Context & { params: Record<string, string> }).params?.org : undefined;
  const auth = await authenticateRequest(deps, ctx, slug);
  if (!auth) throw unauthorized();
  if (auth.user.must_change_password && !spec.allowDuringPasswordChange) {
    throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Change the built-in password first (POST /api/v1/auth/password).');
  }
  const writes = isStateChanging(spec.method);
  if (spec.permission === 'authenticated') {
    await authorizeAction(deps, auth, { surface: 'rest', writes });
    return auth;
  }
  if (spec.permission === 'superAdmin') {
    await authorizeAction(deps, auth, { surface: 'rest', writes });
    if (!auth.user.super_admin) throw forbidden('Only a super admin may do this.');
    // Server administration takes the person: a leaked token must not take over other accounts.
    requireSession(auth, 'Server administration');
    return auth;
  }
  if (!slug) throw new Error(`route ${spec.method} ${spec.path} declares ${spec.permission} but has no :org parameter`);
  const { org, role } = await authorizeAction(deps, auth, { surface: spec.surface ?? 'rest', writes, org: { slug, permission: spec.permission } });
  return { ...auth, org, role };
}
