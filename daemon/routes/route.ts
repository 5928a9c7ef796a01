import type { Context } from 'koa';
import type { z } from 'zod';
import type { AuthContext } from '../access/auth-context.js';
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

/** What a handler receives: validated input and the caller. */
export interface Call<Body, Auth> {
  ctx: Context;
  deps: AppDeps;
  auth: Auth;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Body;
}

/**
 * One route of the API, as data. `permission` is required, and the one mounting function
 * enforces it before the handler runs, so no handler can forget the check.
 */
export interface RouteSpec<Body = any> {
  method: HttpMethod;
  /** Path under /api/v1, with `:name` parameters; org routes start with `/orgs/:org`. */
  path: string;
  permission: Permission;
  /** Zod schema of the JSON body; when set the body is parsed and validated (400 lists every problem). */
  body?: z.ZodType<Body>;
  /** Hand the handler the raw body bytes (up to this many) instead of JSON. */
  rawBodyLimit?: number;
  /** Status of a successful answer; 204 when the handler returns undefined. */
  status?: number;
  /** Callable while the account must still change its built-in password. */
  allowDuringPasswordChange?: boolean;
  /** One line for docs and the route listing. */
  summary: string;
  handler(call: Call<Body, Permission extends 'public' ? AuthContext | undefined : AuthContext>): Promise<unknown>;
}

/** Declares a route with its body type inferred from the schema. */
export const route = <Body = unknown>(spec: RouteSpec<Body>): RouteSpec<Body> => spec;

/** The methods that change state; a viewer gets 403 on every org route using one of them. */
export const isStateChanging = (method: HttpMethod): boolean => method !== 'GET';
