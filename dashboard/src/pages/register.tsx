import { useState } from 'preact/hooks';
import { post } from '../api/client';
import type { LoginAnswer } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { Link } from '../components/link';
import { navigate, useLocation } from '../lib/router';
import { safeReturnTo } from '../lib/session';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import { continueAfterSignIn } from './sign-in';

/** Creates an account with e-mail and password, then signs it in. */
export function RegisterPage() {
  usePageTitle('Create an account');
  const returnTo = safeReturnTo(useLocation().search.get('returnTo'));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const issues = issuesByPath(error?.issues ?? []);

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(
      async () => {
        await post('/auth/register', { email, password, ...(name.trim() ? { name: name.trim() } : {}) }, { anonymous: true });
        const answer = await post<LoginAnswer>('/auth/login', { email, password }, { anonymous: true });
        if ('mfaRequired' in answer) navigate('/d/sign-in', { replace: true });
        else continueAfterSignIn(answer, returnTo);
      },
      { keepBusy: true },
    );
  };

  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Create an account</h1>
      <ErrorBanner error={error} title="Not created" />
      <form onSubmit={submit} class="card" aria-label="Create an account">
        <TextField id="name" label="Name (optional)" autoComplete="name" value={name} onValue={setName} errors={issues.get('name')} />
        <TextField id="email" label="E-mail" type="email" autoComplete="email" required value={email} onValue={setEmail} errors={issues.get('email')} />
        <TextField
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={password}
          onValue={setPassword}
          hint="At least 8 characters."
          errors={issues.get('password')}
        />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p class="aside">
        Already have an account? <Link href={`/d/sign-in${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`}>Sign in</Link>
      </p>
    </main>
  );
}
