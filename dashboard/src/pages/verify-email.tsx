import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api/client';
import { ApiError, asApiError } from '../api/errors';
import { ErrorBanner, Notice } from '../components/error-banner';
import { Link } from '../components/link';
import { takeTokenFromAddress } from '../lib/fragment-token';
import { refreshAccount, sessionState } from '../lib/session';
import { usePageTitle } from '../lib/title';
import type { EmailVerified } from '../api/types';

/** The page a verification mail links to: confirms the address at once. */
export function VerifyEmailPage() {
  usePageTitle('Verify your e-mail address');
  const [token] = useState(() => takeTokenFromAddress());
  const [result, setResult] = useState<{ email: string }>();
  const [error, setError] = useState<ApiError>();
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    post<EmailVerified>('/auth/verify-email', { token }, { anonymous: true }).then(
      (answer) => {
        setResult(answer);
        if (sessionState().account) void refreshAccount().catch(() => undefined);
      },
      (caught) => setError(asApiError(caught)),
    );
  }, [token]);
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Verify your e-mail address</h1>
      {!token ? <ErrorBanner error={new ApiError(0, 'MISSING_TOKEN', 'This page needs the link from the verification mail.')} /> : null}
      {result ? <Notice>{result.email} is verified. Thank you.</Notice> : null}
      <ErrorBanner error={error} title="Not verified" />
      {token && !result && !error ? <p aria-busy="true">Checking…</p> : null}
      <p>
        <Link href="/">Continue</Link>
      </p>
    </main>
  );
}
