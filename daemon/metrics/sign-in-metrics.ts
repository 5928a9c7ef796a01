import type { Context } from 'koa';
import type { Metrics } from './metrics.js';

// The routes that are sign-in attempts, by route template, and the method each one counts as.
const SIGN_IN_ROUTES: Record<string, (ctx: Context) => string> = {
  '/api/v1/auth/login': () => 'password',
  '/api/v1/auth/2fa/verify': () => 'totp',
  '/api/v1/auth/:provider/callback': (ctx) => (ctx as Context & { params?: Record<string, string> }).params?.provider ?? 'external',
};

/**
 * Counts a finished request in `svc_sign_ins_total` when it was a sign-in attempt, by the answer:
 * `ok`, `second_factor` (password right, TOTP asked next), `rate_limited` or `failed`.
 */
export function countSignIn(metrics: Metrics, ctx: Context, route: string): void {
  const method = SIGN_IN_ROUTES[route];
  if (!method) return;
  metrics.signIns.inc({ method: method(ctx), result: signInResult(ctx) });
}

function signInResult(ctx: Context): string {
  if (ctx.status === 429) return 'rate_limited';
  // External sign-ins always redirect: to the hand-off page with a code on success.
  if (ctx.status === 302) return /[?&]code=/.test(ctx.response.get('Location')) ? 'ok' : 'failed';
  if (ctx.status !== 200) return 'failed';
  return (ctx.body as { mfaRequired?: boolean } | undefined)?.mfaRequired ? 'second_factor' : 'ok';
}
