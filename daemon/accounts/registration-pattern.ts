import type { AppDeps } from '../deps.js';
import { PER_PATTERN_MS } from '../orgs/pattern-matcher.js';

/**
 * Whether SVC_AUTH_REGISTRATION_EMAIL_PATTERN lets `email` (lower case) register. The pattern is
 * matched on the e-mail pattern worker like the organizations' patterns, so a pattern that
 * backtracks without end holds neither the event loop nor the request: after PER_PATTERN_MS it
 * counts as not matching, and the address is refused (the pattern guards who may register).
 */
export async function registrationPatternAllows(deps: Pick<AppDeps, 'config' | 'caches' | 'logger'>, email: string): Promise<boolean> {
  const pattern = deps.config.auth.registrationEmailPattern;
  if (!pattern) return true;
  const [outcome] = await deps.caches.patterns.match(email, [pattern], '');
  if (outcome === 'match') return true;
  if (outcome !== 'no-match') {
    deps.logger.warn(
      { outcome },
      `SVC_AUTH_REGISTRATION_EMAIL_PATTERN could not be matched within ${PER_PATTERN_MS} ms (${outcome}); the registration was refused`,
    );
  }
  return false;
}
