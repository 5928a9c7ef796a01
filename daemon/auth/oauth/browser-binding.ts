import type { Context } from 'koa';
import type { AppDeps } from '../../deps.js';
import { safeEqual } from '../../crypto/tokens.js';
import { STATE_TTL_SECONDS } from './states.js';

/** The cookie that ties an authorization to the browser that started it. */
const COOKIE = 'svc_oauth_state';
const PATH = '/api/v1/auth/';

/**
 * Remembers the state in an HttpOnly cookie, so a callback carrying someone else's code and state
 * (login CSRF) is refused. SameSite=Lax still sends it on the provider's top-level redirect back.
 * Written by hand: behind a TLS-terminating proxy Koa would refuse a Secure cookie on plain HTTP.
 */
export function bindStateToBrowser(deps: Pick<AppDeps, 'config'>, ctx: Context, state: string): void {
  const secure = deps.config.baseUrl.startsWith('https:') ? '; Secure' : '';
  ctx.append('Set-Cookie', `${COOKIE}=${state}; Path=${PATH}; Max-Age=${STATE_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`);
}

/** Whether the browser calling back is the one that started this state; clears the cookie. */
export function browserStartedState(ctx: Context, state: string): boolean {
  const cookie = ctx.cookies.get(COOKIE);
  ctx.append('Set-Cookie', `${COOKIE}=; Path=${PATH}; Max-Age=0; HttpOnly; SameSite=Lax`);
  return typeof cookie === 'string' && safeEqual(cookie, state);
}
