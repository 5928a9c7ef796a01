import { useState } from 'preact/hooks';
import { PasswordForm } from '../components/password-form';
import { navigate, useLocation } from '../lib/router';
import { refreshAccount, safeReturnTo, signOut } from '../lib/session';
import { takeSignInPassword } from '../lib/sign-in-password';
import { usePageTitle } from '../lib/title';

/** The forced change of the built-in password: nothing else works until it is done. */
export function ChangePasswordPage() {
  usePageTitle('Choose a new password');
  const { search } = useLocation();
  const returnTo = safeReturnTo(search.get('returnTo'));
  // Right after signing in, the password just typed is the current one: only the new one is asked for.
  const [signInPassword] = useState(takeSignInPassword);
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Choose a new password</h1>
      <p>This account still has the built-in password. Choose your own before you continue; the built-in one stops working.</p>
      <PasswordForm
        submitLabel="Save and continue"
        knownCurrent={signInPassword}
        onDone={async () => {
          await refreshAccount();
          navigate(returnTo ?? '/', { replace: true });
        }}
      />
      <p class="aside">
        <button type="button" class="link-button" onClick={() => void signOut()}>
          Sign out
        </button>
      </p>
    </main>
  );
}
