import type { Context } from 'koa';
import type { z } from 'zod';
import type { RequestName } from '../../contract/request-bodies.js';
import type { ResponseBodies, ResponseName } from '../../contract/response-bodies.js';
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

/** The names of the `:name` parameters of a path. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The parameters of a path, inferred from it: `/orgs/:org/checks/:slug` has `org` and `slug`,
 * and reading any other is a compile error. A route table's path, known only as a string, has any.
 */
export type PathParams<Path extends string> = string extends Path ? any : { [Name in ParamNames<Path>]: string };

/**
 * What a handler returns: the body of the answer the route declares (contract/response-bodies.ts),
 * nothing for a route that declares none (204, or a body the handler writes itself), and also
 * nothing when the route declares it may answer empty.
 */
export type HandlerResult<Answer extends ResponseName | undefined, Empty extends boolean> =
  | (Answer extends ResponseName ? ResponseBodies[Answer] : void)
  | (Empty extends true ? undefined : never);

/** What every handler receives: the request and its validated input. */
export interface PublicCall<Body, Path extends string = string> {
  ctx: Context;
  deps: AppDeps;
  params: PathParams<Path>;
  query: URLSearchParams;
  body: Body;
}

/** What a handler of a route that needs a caller receives: the input and the caller. */
export interface Call<Body, Auth, Path extends string = string> extends PublicCall<Body, Path> {
  auth: Auth;
}

/**
 * The caller as a route of this permission sees it: nothing for a public route (it never
 * authenticates), the account for a signed-in or super-admin route, and for an organization
 * route also the organization and the member's role, never optional.
 */
export type AuthFor<P extends Permission> = P extends 'public' ? never : P extends 'authenticated' | 'superAdmin' ? AuthContext : OrgAuthContext;

/** What the handler of a route of permission `P` receives. */
export type CallFor<Body, P extends Permission, Path extends string = string> = [P] extends ['public'] ? PublicCall<Body, Path> : Call<Body, AuthFor<P>, Path>;

/**
 * One route of the API, as data. `permission` is required, and the one mounting function
 * enforces it before the handler runs, so no handler can forget the check.
 */
export interface RouteSpec<
  Body = any,
  P extends Permission = Permission,
  Path extends string = string,
  Answer extends ResponseName | undefined = ResponseName | undefined,
  Empty extends boolean = boolean,
> {
  method: HttpMethod;
  /** Path under /api/v1, with `:name` parameters; org routes start with `/orgs/:org`. */
  path: Path;
  permission: P;
  /** Zod schema of the JSON body; when set the body is parsed and validated (400 lists every problem). */
  body?: z.ZodType<Body>;
  /** The body's type in the contract, when the handler validates it itself (`body: z.unknown()`): for the OpenAPI document. */
  bodyType?: RequestName;
  /** Hand the handler the raw body bytes (up to this many) instead of JSON. */
  rawBodyLimit?: number;
  /** Status of a successful answer; 204 when the handler returns undefined. */
  status?: number;
  /** Which token scopes reach it: the REST API's (default), or also `metrics:read` for the metrics route. */
  surface?: 'rest' | 'metrics';
  /** The success answer's body, by its name in the contract; the handler must return that type. */
  response?: Answer;
  /** The handler may also return nothing, answered 204 (sign-out of one session, an uptime with no runs). */
  emptyAnswer?: Empty;
  /** A handler that writes its answer itself (ctx.body or a redirect): what it writes, for the OpenAPI document. */
  writes?: WrittenAnswer;
  /** Callable while the account must still change its built-in password. */
  allowDuringPasswordChange?: boolean;
  /** One line for docs and the route listing. */
  summary: string;
  // A method, so that a table of routes of different kinds is one RouteSpec[].
  handler(call: CallFor<Body, P, Path>): Promise<NoInfer<HandlerResult<Answer, Empty>>>;
}

/** An answer a handler writes itself: a redirect, or a body of a media type (with its JSON's shape by name). */
export type WrittenAnswer = { redirect: true } | { mediaType: string; body?: ResponseName; description: string };

/**
 * Declares a route with its body type inferred from the schema, its kind from `permission`, its
 * parameters from `path` and its answer from `response`: the handler receives exactly the caller
 * that kind has (see {@link AuthFor}) and the path's parameters, and must return the declared body.
 */
export const route = <
  Body = unknown,
  P extends Permission = Permission,
  Path extends string = string,
  Answer extends ResponseName | undefined = undefined,
  Empty extends boolean = false,
>(
  spec: RouteSpec<Body, P, Path, Answer, Empty>,
): NoInfer<RouteSpec<Body, P, Path, Answer, Empty>> => spec;

/** The methods that change state; a viewer gets 403 on every org route using one of them. */
export const isStateChanging = (method: HttpMethod): boolean => method !== 'GET';
