import { forbidden } from '../errors.js';
import type { AuthContext } from './auth-context.js';

/**
 * Refuses a personal access token where only the account itself may act: a token is bound to one
 * organization and a scope, so it must not mint other tokens, create organizations or change the
 * account (that would let a narrow token widen itself).
 */
export function requireSession(auth: AuthContext, what: string): void {
  if (auth.token) throw forbidden(`${what} needs a signed-in session; a personal access token cannot do it.`);
}
