import { configureClient, get, post } from '../api/client';
import type { Account, Session } from '../api/types';
import { currentPath, navigate } from './router';

/**
 * The session token lives in sessionStorage: it survives a reload of this tab (deep links keep
 * working) but is never shared with other tabs, never sent as a cookie and never put in a URL.
 */
const STORAGE_KEY = 'svc.session';

export interface SessionState {
  token?: string;
  account?: Account;
  /** True while the stored token is being checked at start-up. */
  restoring: boolean;
}

let state: SessionState = { token: readToken(), restoring: false };
const listeners = new Set<() => void>();

function readToken(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function writeToken(token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(STORAGE_KEY, token);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled; the session then lasts until the page is left.
  }
}

function setState(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const sessionState = (): SessionState => state;

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Adopts a session from sign-in, 2FA or the hand-off. */
export function adoptSession(session: Session): void {
  writeToken(session.accessToken);
  setState({ token: session.accessToken, account: session.user, restoring: false });
}

/** Forgets the session locally (the server side is ended by signOut). */
export function clearSession(): void {
  writeToken(undefined);
  setState({ token: undefined, account: undefined, restoring: false });
}

/** Re-reads the account, after a change of name, e-mail, password or organizations. */
export async function refreshAccount(): Promise<Account | undefined> {
  if (!state.token) return undefined;
  const account = await get<Account>('/auth/me');
  setState({ account });
  return account;
}

/** On start-up: checks a token left in this tab by a previous load. */
export async function restoreSession(): Promise<void> {
  if (!state.token || state.account) return;
  setState({ restoring: true });
  try {
    await refreshAccount();
  } catch {
    clearSession();
  } finally {
    setState({ restoring: false });
  }
}

export async function signOut(): Promise<void> {
  try {
    if (state.token) await post('/auth/logout');
  } catch {
    // The session is forgotten here whatever the server says.
  }
  clearSession();
  navigate('/d/sign-in', { replace: true });
}

/** A path to come back to after sign-in: only this dashboard's own pages. */
export function safeReturnTo(value: string | null | undefined): string | undefined {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if (value.startsWith('/api/') || value.startsWith('/d/sign-in') || value.startsWith('/d/auth/')) return undefined;
  return value;
}

/** The sign-in page's address, remembering where to continue afterwards. */
export function signInPath(returnTo?: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  const safe = safeReturnTo(returnTo);
  if (safe && safe !== '/') params.set('returnTo', safe);
  const qs = params.toString();
  return `/d/sign-in${qs ? `?${qs}` : ''}`;
}

configureClient({
  token: () => state.token,
  onUnauthorized() {
    // The session ended (expired, signed out elsewhere): back to sign-in, then back here.
    const here = currentPath();
    clearSession();
    navigate(signInPath(here, { expired: '1' }), { replace: true });
  },
  onPasswordChangeRequired() {
    if (state.account) setState({ account: { ...state.account, mustChangePassword: true } });
  },
  onForbidden() {
    // Roles are read on every request server-side; re-read them so the pages hide what no longer works.
    void refreshAccount().catch(() => undefined);
  },
});
