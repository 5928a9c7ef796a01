import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { HandoffAnswer, LoginAnswer } from '../api/types';
import { Link } from '../components/link';
import { safeReturnTo } from '../lib/session';
import { usePageTitle } from '../lib/title';
import { continueAfterSignIn, SecondFactorStep } from './sign-in';

/** The reasons the server gives in `?error=` when an external sign-in fails. */
const FAILURES: Record<string, string> = {
  access_denied: 'The sign-in was cancelled at the identity provider.',
  invalid_state: 'The sign-in took too long or was started in another browser. Please start it again.',
  provider_error: 'The identity provider could not complete the sign-in. Please try again later.',
  email_not_verified: 'The identity provider has not verified your e-mail address. Verify it there, then sign in again.',
  registration_closed: 'This server does not accept new accounts from your e-mail address. Ask an administrator for an invitation.',
  install_failed: 'The app could not be installed in your workspace. Please try again.',
  rate_limited: 'Too many sign-ins were started from your network. Please wait a few minutes and try again.',
  saml_refused: 'Your organization’s identity provider sent an answer that could not be accepted. Please start the sign-in again.',
  account_exists: 'An account already uses your e-mail address. Sign in the way you usually do.',
  saml_required: 'Your organization requires single sign-on. Sign in through your organization’s identity provider.',
};

/**
 * Where an identity provider's sign-in lands: `?code=` is a one-time code for a session stored
 * server-side. The code leaves the address bar before anything else happens, so it is never
 * left in history, bookmarks or a copied link.
 */
export function AuthCompletePage() {
  usePageTitle('Signing in');
  const [params] = useState(() => new URLSearchParams(window.location.search));
  const [error, setError] = useState<ApiError | 'missing'>();
  const [challenge, setChallenge] = useState<{ mfaToken: string; returnTo?: string }>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    window.history.replaceState(null, '', '/d/auth/complete');
    const code = params.get('code');
    if (!code) {
      setError('missing');
      return;
    }
    post<LoginAnswer & Pick<HandoffAnswer, 'returnTo'>>('/auth/handoff/exchange', { code }, { anonymous: true }).then(
      (answer) => {
        const returnTo = safeReturnTo(answer.returnTo ?? undefined);
        // An account with two-factor still owes its second step.
        if ('mfaRequired' in answer) setChallenge({ mfaToken: answer.mfaToken, returnTo });
        else continueAfterSignIn(answer, returnTo);
      },
      (caught) => setError(asApiError(caught)),
    );
  }, [params]);

  if (challenge) return <SecondFactorStep mfaToken={challenge.mfaToken} returnTo={challenge.returnTo} />;
  if (!error) {
    return (
      <main class="auth-page" id="main" aria-busy="true">
        <h1 tabIndex={-1}>Signing you in…</h1>
      </main>
    );
  }
  const reason = params.get('error');
  const providerError = reason ? (FAILURES[reason] ?? `The sign-in failed (${reason}).`) : undefined;
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Sign-in did not complete</h1>
      <div class="banner banner-error" role="alert" data-error-code={error === 'missing' ? (reason ? 'SIGN_IN_FAILED' : 'MISSING_CODE') : error.code}>
        {error === 'missing' ? (
          <p>{providerError ?? 'This page needs the sign-in code that the identity provider sends you back with, and there was none.'}</p>
        ) : error.code === 'UNAUTHORIZED' ? (
          <p>This sign-in link has already been used or has expired (it works once, within 60 seconds). Please sign in again.</p>
        ) : (
          <p>{error.message}</p>
        )}
      </div>
      <p>
        <Link href="/d/sign-in" class="button primary">
          Back to sign-in
        </Link>
      </p>
    </main>
  );
}
