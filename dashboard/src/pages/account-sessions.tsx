import { useState } from 'preact/hooks';
import { del, get } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Page, SessionView } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { formatDate } from '../lib/format';
import { signOut } from '../lib/session';
import { useAsync } from '../lib/use-async';

/** Where the account is signed in; any session can be ended (this one signs out here). */
export function SessionsSection() {
  const list = useAsync(() => get<Page<SessionView>>('/auth/sessions'), []);
  const [error, setError] = useState<ApiError>();

  const end = async (session: SessionView) => {
    if (session.current) {
      await signOut();
      return;
    }
    setError(undefined);
    try {
      await del(`/auth/sessions/${encodeURIComponent(session.id)}`);
    } catch (caught) {
      setError(asApiError(caught));
    }
    list.reload();
  };

  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <ErrorBanner error={list.error ?? error} />
      {list.data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">How</th>
                <th scope="col">From</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((session) => (
                <tr key={session.id} data-current={session.current ? 'true' : undefined}>
                  <td>
                    {formatDate(session.createdAt)}
                    {session.current ? <span class="badge">this one</span> : null}
                  </td>
                  <td>{session.method}</td>
                  <td>
                    {session.clientAddress ?? '—'}
                    {session.userAgent ? <div class="hint">{session.userAgent}</div> : null}
                  </td>
                  <td>{formatDate(session.lastSeenAt)}</td>
                  <td>
                    <button type="button" class="danger" onClick={() => void end(session)}>
                      {session.current ? 'End this session' : 'End'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
