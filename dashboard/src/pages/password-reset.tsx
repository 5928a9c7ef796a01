import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { ApiError } from '../api/errors';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { Link } from '../components/link';
import { takeTokenFromAddress } from '../lib/fragment-token';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import type { PasswordResetRequested } from '../api/types';

/** Asks for a reset link by e-mail; the answer is the same whether or not the address is known. */
export function ForgotPasswordPage() {
  usePageTitle('Reset your password');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string>();
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      // The server words the answer: a mail is on its way, or (without mail) an administrator can issue a link.
      const answer = await post<PasswordResetRequested>('/auth/password-reset', { email }, { anonymous: true });
      setSent(answer.message);
    });
  };
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Reset your password</h1>
      {sent ? (
        <Notice>{sent}</Notice>
      ) : (
        <form class="card" onSubmit={submit}>
          <p class="aside">
            We send a link to reset your password to this address. If this server does not send mail, an administrator can issue the link instead.
          </p>
          <ErrorBanner error={error} />
          <TextField
            id="email"
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            value={email}
            onValue={setEmail}
            errors={issuesByPath(error?.issues ?? []).get('email')}
          />
          <button type="submit" class="primary" disabled={busy}>
            Send reset link
          </button>
        </form>
      )}
      <p class="aside">
        <Link href="/d/sign-in">Back to sign-in</Link>
      </p>
    </main>
  );
}

/** The page a reset mail links to: choose the new password. */
export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [token] = useState(() => takeTokenFromAddress());
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      await post('/auth/password-reset/confirm', { token, newPassword: password }, { anonymous: true });
      setDone(true);
    });
  };
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Choose a new password</h1>
      {!token ? (
        <ErrorBanner error={new ApiError(0, 'MISSING_TOKEN', 'This page needs the link from the reset mail.')} />
      ) : done ? (
        <Notice>Your password has been changed and every session of the account was signed out.</Notice>
      ) : (
        <form class="card" onSubmit={submit}>
          <ErrorBanner error={error} title="Not changed" />
          <TextField
            id="new-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onValue={setPassword}
            hint="At least 8 characters."
            errors={issuesByPath(error?.issues ?? []).get('newPassword')}
          />
          <button type="submit" class="primary" disabled={busy}>
            Set password
          </button>
        </form>
      )}
      <p class="aside">
        <Link href="/d/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
