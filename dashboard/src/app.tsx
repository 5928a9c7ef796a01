import { useEffect, useRef, useState } from 'preact/hooks';
import { Shell } from './components/shell';
import { matchPath, navigate, useLocation } from './lib/router';
import { restoreSession, safeReturnTo, sessionState, signInPath, subscribeSession, type SessionState } from './lib/session';
import type { Account } from './api/types';
import { AuthCompletePage } from './pages/auth-complete';
import { InvitationAcceptPage } from './pages/invitation-accept';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/password-reset';
import { VerifyEmailPage } from './pages/verify-email';
import { ChangePasswordPage } from './pages/change-password';
import { NotFoundPage } from './pages/not-found';
import { RegisterPage } from './pages/register';
import { SignInPage } from './pages/sign-in';
import { PAGE_ROUTES, withRole } from './routes';

function useSession(): SessionState {
  const [state, setState] = useState(sessionState);
  useEffect(() => subscribeSession(() => setState(sessionState())), []);
  return state;
}

/** Redirects once rendering is done (never during render). */
function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/** Moves focus to the new page's heading after client-side navigation, as a page load would. */
function useFocusOnNavigate(path: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
}

/** The organization an unknown /orgs/... path names, to keep its navigation. */
function orgOfPath(path: string): string | undefined {
  const segment = path.match(/^\/orgs\/([^/]+)/)?.[1];
  try {
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return undefined;
  }
}

/** Pages for the signed-out only: a signed-in visitor continues where they were going. */
const PUBLIC_PAGES = new Set(['/d/sign-in', '/d/register']);

/** Pages a mail links to, usable signed in or not. */
const ANYONE_PAGES: Record<string, (account?: Account) => preact.ComponentChildren> = {
  '/d/forgot-password': () => <ForgotPasswordPage />,
  '/d/reset': () => <ResetPasswordPage />,
  '/d/auth/verify-email': () => <VerifyEmailPage />,
  '/d/invitations/accept': (account) => <InvitationAcceptPage account={account} />,
};

export function App() {
  const session = useSession();
  const location = useLocation();
  const { path, search } = location;
  useEffect(() => void restoreSession(), []);
  useFocusOnNavigate(path);

  // The hand-off page works whether or not a session exists: it brings a new one.
  if (path === '/d/auth/complete') return <AuthCompletePage />;
  if (session.restoring || (session.token && !session.account)) {
    return (
      <main id="main" class="auth-page" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  const account = session.account;
  const anyone = ANYONE_PAGES[path];
  if (anyone) return <>{anyone(account)}</>;
  if (PUBLIC_PAGES.has(path)) {
    if (account) return <Redirect to={safeReturnTo(search.get('returnTo')) ?? '/'} />;
    return path === '/d/sign-in' ? <SignInPage /> : <RegisterPage />;
  }
  if (!account) return <Redirect to={signInPath(path + window.location.search)} />;
  if (account.mustChangePassword) {
    if (path !== '/d/change-password') return <Redirect to={`/d/change-password?returnTo=${encodeURIComponent(path + window.location.search)}`} />;
    return <ChangePasswordPage />;
  }
  if (path === '/' || path === '/d' || path === '/d/') {
    const first = account.organizations[0]?.slug;
    return <Redirect to={first ? `/orgs/${encodeURIComponent(first)}/overview` : '/d/account'} />;
  }
  // Once the password is changed, on to the page asked for, else the start page (the first organization's overview).
  if (path === '/d/change-password') return <Redirect to={safeReturnTo(search.get('returnTo')) ?? '/'} />;
  for (const route of PAGE_ROUTES) {
    const params = matchPath(route.pattern, path);
    if (params) {
      return (
        <Shell account={account} org={params.org} path={path}>
          {route.render({ account, params, search, role: withRole(account, params) })}
        </Shell>
      );
    }
  }
  const org = orgOfPath(path);
  return (
    <Shell account={account} org={org} path={path}>
      <NotFoundPage />
    </Shell>
  );
}
