import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Page, PasswordResetIssued, Revoked, SystemUser } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { formatDate } from '../lib/format';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';

/** Every account of the server (super admin): change an e-mail without a password, end sessions, issue a reset link. */
export function ServerUsersPage() {
  usePageTitle('Users');
  const [query, setQuery] = useState('');
  const [applied, setApplied] = useState('');
  const [cursor, setCursor] = useState<string>();
  const list = useAsync(() => get<Page<SystemUser>>('/system/users', { query: { email: applied || undefined, cursor, limit: '50' } }), [applied, cursor]);
  const [editing, setEditing] = useState<string>();
  const [notice, setNotice] = useState<preact.ComponentChildren>();
  const [error, setError] = useState<ApiError>();

  const act = async (run: () => Promise<preact.ComponentChildren>) => {
    setError(undefined);
    setNotice(undefined);
    try {
      setNotice(await run());
      list.reload();
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const endSessions = (user: SystemUser) =>
    act(async () => {
      const answer = await del<Revoked>(`/system/users/${encodeURIComponent(user.uid)}/sessions`);
      return `${answer?.revoked ?? 0} sessions of ${user.email} ended.`;
    });

  const resetLink = (user: SystemUser) =>
    act(async () => {
      const answer = await post<PasswordResetIssued>(`/system/users/${encodeURIComponent(user.uid)}/password-reset`);
      if (answer.mailed) return `A reset link was mailed to ${user.email}.`;
      return (
        <>
          <p>
            This server sends no mail. Give {user.email} this link (valid until {formatDate(answer.expiresAt)}):
          </p>
          <label for="reset-url">Reset link</label>
          <input id="reset-url" class="mono" readOnly value={answer.url} />
        </>
      );
    });

  return (
    <main id="main">
      <h1 tabIndex={-1}>Users</h1>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setCursor(undefined);
          setApplied(query.trim());
        }}
        aria-label="Find a user"
      >
        <TextField id="user-search" label="E-mail address" type="email" value={query} onValue={setQuery} />
        <button type="submit">Find</button>
        {applied ? (
          <button
            type="button"
            class="link-button"
            onClick={() => {
              setQuery('');
              setApplied('');
            }}
          >
            Show all
          </button>
        ) : null}
      </form>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={list.error ?? error} />
      {list.data ? (
        list.data.items.length === 0 ? (
          <p>No account found.</p>
        ) : (
          <ul class="plain-list">
            {list.data.items.map((user) => (
              <li key={user.uid} class="card" data-user={user.email}>
                <p>
                  <strong>{user.name || user.email}</strong> <span class="mono">{user.email}</span>
                  {user.superAdmin ? <span class="badge">super admin</span> : null}
                  {user.emailVerified ? null : <span class="badge">unverified</span>}
                  {user.hasPassword ? null : <span class="badge">no password</span>}
                </p>
                {editing === user.uid ? (
                  <EmailForm
                    user={user}
                    onDone={(email) => {
                      setEditing(undefined);
                      setNotice(`The address is now ${email}; every session of the account ended.`);
                      list.reload();
                    }}
                    onCancel={() => setEditing(undefined)}
                  />
                ) : (
                  <div class="button-row">
                    <button type="button" onClick={() => setEditing(user.uid)}>
                      Change e-mail
                    </button>
                    <button type="button" onClick={() => void endSessions(user)}>
                      End sessions
                    </button>
                    <button type="button" onClick={() => void resetLink(user)}>
                      Password reset link
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      {list.data?.nextCursor ? (
        <button type="button" onClick={() => setCursor(list.data!.nextCursor!)}>
          Next page
        </button>
      ) : null}
    </main>
  );
}

function EmailForm({ user, onDone, onCancel }: { user: SystemUser; onDone(email: string): void; onCancel(): void }) {
  const [email, setEmail] = useState(user.email);
  const [error, setError] = useState<ApiError>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await patch(`/system/users/${encodeURIComponent(user.uid)}`, { email });
      onDone(email);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  const id = `email-${user.uid}`;
  return (
    <form onSubmit={submit} aria-label={`New e-mail address of ${user.email}`}>
      <ErrorBanner error={error} title={error?.reason === 'EMAIL_TAKEN' ? 'Address in use' : 'Not changed'} />
      <TextField
        id={id}
        label="New e-mail address"
        type="email"
        required
        value={email}
        onValue={setEmail}
        hint="No password needed. The address becomes unverified and the account's sessions end."
        errors={issuesByPath(error?.issues ?? []).get('email')}
      />
      <div class="button-row">
        <button type="submit" class="primary">
          Save address
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
