import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { HandoffAnswer } from '../api/types';
import { Link } from '../components/link';
import { safeReturnTo } from '../lib/session';
import { usePageTitle } from '../lib/title';
import { continueAfterSignIn } from './sign-in';

/**
 * Where an identity provider's sign-in lands: `?code=` is a one-time code for a session stored
 * server-side. The code leaves the address bar before anything else happens, so it is never
 * left in history, bookmarks or a copied link.
 */
export function AuthCompletePage() {
  usePageTitle('Signing in');
  const [params] = useState(() => new URLSearchParams(window.location.search));
  const [error, setError] = useState<ApiError | 'missing'>();
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
    post<HandoffAnswer>('/auth/handoff/exchange', { code }, { anonymous: true }).then(
      (session) => continueAfterSignIn(session, safeReturnTo(session.returnTo ?? undefined)),
      (caught) => setError(asApiError(caught)),
    );
  }, [params]);

  if (!error) {
    return (
      <main class="auth-page" id="main" aria-busy="true">
        <h1 tabIndex={-1}>Signing you in…</h1>
      </main>
    );
  }
  const providerError = params.get('error_description') ?? params.get('error');
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Sign-in did not complete</h1>
      <div class="banner banner-error" role="alert" data-error-code={error === 'missing' ? 'MISSING_CODE' : error.code}>
        {error === 'missing' ? (
          <p>{providerError ? `The identity provider reported: ${providerError}` : 'This page needs the sign-in code that the identity provider sends you back with, and there was none.'}</p>
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
