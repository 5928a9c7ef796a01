import type { Context } from 'koa';
import type { z } from 'zod';
import type { AuthContext, OrgAuthContext } from '../access/auth-context.js';
import type { OrgPermission } from '../access/permissions.js';
import type { AppDeps } from '../deps.js';

/**
 * Who may call a route: anyone, any signed-in account, a super admin, or a member of the
 * organization in the path (`:org`) whose current role grants the permission.
 */
export type Permission = 'public' | 'authenticated' | 'superAdmin' | OrgPermission;

/** Whether a permission is an organization's, granted by the caller's role in the `:org` of the path. */
export const isOrgPermission = (permission: Permission): permission is OrgPermission =>
  permission !== 'public' && permission !== 'authenticated' && permission !== 'superAdmin';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What every handler receives: the request and its validated input. */
export interface PublicCall<Body> {
  ctx: Context;
  deps: AppDeps;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Body;
}

/** What a handler of a route that needs a caller receives: the input and the caller. */
export interface Call<Body, Auth> extends PublicCall<Body> {
  auth: Auth;
}

/**
 * The caller as a route of this permission sees it: nothing for a public route (it never
 * authenticates), the account for a signed-in or super-admin route, and for an organization
 * route also the organization and the member's role, never optional.
 */
export type AuthFor<P extends Permission> = P extends 'public' ? never : P extends 'authenticated' | 'superAdmin' ? AuthContext : OrgAuthContext;

/** What the handler of a route of permission `P` receives. */
export type CallFor<Body, P extends Permission> = [P] extends ['public'] ? PublicCall<Body> : Call<Body, AuthFor<P>>;

/**
 * One route of the API, as data. `permission` is required, and the one mounting function
 * enforces it before the handler runs, so no handler can forget the check.
 */
export interface RouteSpec<Body = any, P extends Permission = Permission> {
  method: HttpMethod;
  /** Path under /api/v1, with `:name` parameters; org routes start with `/orgs/:org`. */
  path: string;
  permission: P;
  /** Zod schema of the JSON body; when set the body is parsed and validated (400 lists every problem). */
  body?: z.ZodType<Body>;
  /** Hand the handler the raw body bytes (up to this many) instead of JSON. */
  rawBodyLimit?: number;
  /** Status of a successful answer; 204 when the handler returns undefined. */
  status?: number;
  /** Which token scopes reach it: the REST API's (default), or also `metrics:read` for the metrics route. */
  surface?: 'rest' | 'metrics';
  /** Callable while the account must still change its built-in password. */
  allowDuringPasswordChange?: boolean;
  /** One line for docs and the route listing. */
  summary: string;
  // A method, so that a table of routes of different kinds is one RouteSpec[].
  handler(call: CallFor<Body, P>): Promise<unknown>;
}

/**
 * Declares a route with its body type inferred from the schema and its kind from `permission`:
 * the handler receives exactly the caller that kind has (see {@link AuthFor}).
 */
export const route = <Body = unknown, P extends Permission = Permission>(spec: RouteSpec<Body, P>): RouteSpec<Body, P> => spec;

/** The methods that change state; a viewer gets 403 on every org route using one of them. */
export const isStateChanging = (method: HttpMethod): boolean => method !== 'GET';
