import { useState } from 'preact/hooks';
import { patch, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Account } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { PasswordForm } from '../components/password-form';
import { refreshAccount } from '../lib/session';
import { usePageTitle } from '../lib/title';
import { NotificationsSection } from './account-notifications';
import { OrganizationsSection } from './account-organizations';
import { SessionsSection } from './account-sessions';
import { TokensSection } from './account-tokens';
import { TwoFactorSection } from './account-two-factor';

/** The signed-in account: name, e-mail, password, two-factor and personal access tokens. */
export function AccountPage({ account }: { account: Account }) {
  usePageTitle('Account');
  return (
    <main id="main" class="page-account">
      <h1 tabIndex={-1}>Account</h1>
      <NameSection account={account} />
      <EmailSection account={account} />
      <section aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        {account.hasPassword ? <PasswordSection /> : <p>This account signs in through an identity provider and has no password here.</p>}
      </section>
      <TwoFactorSection account={account} />
      <SessionsSection />
      <TokensSection account={account} />
      <NotificationsSection account={account} />
      <OrganizationsSection account={account} />
    </main>
  );
}

function NameSection({ account }: { account: Account }) {
  const [name, setName] = useState(account.name);
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await patch('/auth/me', { name });
      await refreshAccount();
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="name-title">
      <h2 id="name-title">Name</h2>
      <form class="card" onSubmit={submit}>
        {saved ? <Notice>Name saved.</Notice> : null}
        <ErrorBanner error={error} title="Not saved" />
        <TextField
          id="account-name"
          label="Display name"
          autoComplete="name"
          required
          value={name}
          onValue={setName}
          errors={issuesByPath(error?.issues ?? []).get('name')}
        />
        <button type="submit" disabled={busy}>
          Save name
        </button>
      </form>
    </section>
  );
}

function EmailSection({ account }: { account: Account }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const issues = issuesByPath(error?.issues ?? []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await patch('/auth/me', { email, currentPassword: password }, { credentialCheck: true });
      await refreshAccount();
      setEmail('');
      setPassword('');
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="email-title">
      <h2 id="email-title">E-mail address</h2>
      <p>
        Signed in as <strong data-testid="account-email">{account.email}</strong> ({account.emailVerified ? 'verified' : 'not verified'}).
      </p>
      {account.emailVerified ? null : <ResendVerification />}
      {account.hasPassword ? (
        <form class="card" onSubmit={submit} aria-label="Change e-mail address">
          {saved ? <Notice>E-mail address changed. Your other sessions were signed out; the new address is unverified until you confirm it.</Notice> : null}
          <ErrorBanner error={error} title={error?.reason === 'EMAIL_TAKEN' ? 'Address in use' : 'Not changed'} />
          <TextField
            id="new-email"
            label="New e-mail address"
            type="email"
            autoComplete="email"
            required
            value={email}
            onValue={setEmail}
            errors={issues.get('email')}
          />
          <TextField
            id="email-current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onValue={setPassword}
            errors={issues.get('currentPassword')}
          />
          <button type="submit" disabled={busy}>
            Change e-mail address
          </button>
        </form>
      ) : (
        <p>This account has no password, so its address is changed at your identity provider or by a super admin.</p>
      )}
    </section>
  );
}

function ResendVerification() {
  const [state, setState] = useState<'idle' | 'sent' | ApiError>('idle');
  const resend = async () => {
    try {
      await post('/auth/verify-email/resend');
      setState('sent');
    } catch (caught) {
      setState(asApiError(caught));
    }
  };
  if (state === 'sent') return <Notice>A new verification link is on its way.</Notice>;
  return (
    <>
      {state !== 'idle' ? <ErrorBanner error={state} /> : null}
      <button type="button" onClick={() => void resend()}>
        Send the verification mail again
      </button>
    </>
  );
}

function PasswordSection() {
  const [done, setDone] = useState(false);
  return (
    <>
      {done ? <Notice>Password changed. Your other sessions were signed out.</Notice> : null}
      <PasswordForm onDone={() => setDone(true)} />
    </>
  );
}
