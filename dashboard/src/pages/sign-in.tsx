import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { LoginAnswer, Provider, Session } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { TextField } from '../components/fields';
import { Link } from '../components/link';
import { navigate, useLocation } from '../lib/router';
import { adoptSession, safeReturnTo } from '../lib/session';
import { rememberSignInPassword } from '../lib/sign-in-password';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

/** Where to go once signed in: the forced password change first, else where the user started. */
export function continueAfterSignIn(session: Session, returnTo: string | undefined, password?: string): void {
  adoptSession(session);
  if (session.user.mustChangePassword) {
    rememberSignInPassword(password);
    navigate(`/d/change-password${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`, { replace: true });
  } else navigate(returnTo ?? '/', { replace: true });
}

/** E-mail and password, then the second factor when the account has one; provider buttons. */
export function SignInPage() {
  usePageTitle('Sign in');
  const { search } = useLocation();
  const returnTo = safeReturnTo(search.get('returnTo'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [mfaToken, setMfaToken] = useState<string>();
  const { busy, error, run } = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const answer = await post<LoginAnswer>('/auth/login', { email, password }, { anonymous: true });
      if ('mfaRequired' in answer) {
        setPassword('');
        setMfaToken(answer.mfaToken);
      } else continueAfterSignIn(answer, returnTo, password);
    });
  };

  if (mfaToken) return <SecondFactorStep mfaToken={mfaToken} returnTo={returnTo} onRestart={() => setMfaToken(undefined)} />;

  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Sign in to svc</h1>
      {search.get('expired') ? <Notice kind="info">Your session has ended. Sign in again to continue.</Notice> : null}
      <ErrorBanner error={error} title="Sign-in failed" />
      <form onSubmit={submit} class="card" aria-label="Sign in with e-mail and password">
        <TextField id="email" label="E-mail" type="email" autoComplete="username" required value={email} onValue={setEmail} />
        <TextField id="password" label="Password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ProviderButtons returnTo={returnTo} />
      <p class="aside">
        <Link href="/d/forgot-password">Forgot your password?</Link>
        {' · '}
        No account yet? <Link href={`/d/register${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`}>Create one</Link>
      </p>
    </main>
  );
}

/** The enabled identity providers; none when the server has none (or cannot list them). */
function ProviderButtons({ returnTo }: { returnTo?: string }) {
  // Sign-in by password still works; a missing list only hides the buttons.
  const providers = useAsync(() => get<Provider[]>('/auth/providers', { anonymous: true }), []).data ?? [];
  if (providers.length === 0) return null;
  const query = returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : '';
  return (
    <section class="providers" aria-labelledby="providers-title">
      <h2 id="providers-title">Or continue with</h2>
      <ul class="button-list">
        {providers.map((provider) => (
          <li key={provider.key}>
            {/* A full page load: the provider's sign-in happens outside the dashboard. */}
            <a class="button" href={`/api/v1/auth/${encodeURIComponent(provider.key)}/login${query}`} data-provider={provider.key}>
              {provider.displayName}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The second step for accounts with two-factor: an authenticator code, or a recovery code. */
export function SecondFactorStep({ mfaToken, returnTo, onRestart }: { mfaToken: string; returnTo?: string; onRestart?(): void }) {
  usePageTitle('Two-factor sign-in');
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const { busy, error, setError, run } = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(
      async () => {
        const body = useRecovery ? { mfaToken, recoveryCode: code.trim() } : { mfaToken, code: code.replace(/\s+/g, '') };
        continueAfterSignIn(await post<Session>('/auth/2fa/verify', body, { anonymous: true }), returnTo);
      },
      { keepBusy: true },
    );
  };

  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Two-factor sign-in</h1>
      <ErrorBanner error={error} title="Not signed in" />
      <form onSubmit={submit} class="card" aria-label="Second factor">
        {useRecovery ? (
          <TextField
            key="recovery"
            id="recovery-code"
            label="Recovery code"
            autoComplete="off"
            required
            value={code}
            onValue={setCode}
            hint="One of the recovery codes you saved when you set up two-factor sign-in. Each works once."
          />
        ) : (
          <TextField
            key="totp"
            id="totp-code"
            label="Authenticator code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            onValue={setCode}
            hint="The 6-digit code your authenticator app shows now."
          />
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Verify'}
        </button>
      </form>
      <p class="aside">
        <button
          type="button"
          class="link-button"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setCode('');
            setError(undefined);
          }}
        >
          {useRecovery ? 'Use an authenticator code instead' : 'Use a recovery code instead'}
        </button>
        {' · '}
        {onRestart ? (
          <button type="button" class="link-button" onClick={onRestart}>
            Start over
          </button>
        ) : (
          <Link href="/d/sign-in">Start over</Link>
        )}
      </p>
    </main>
  );
}
