import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { MembershipRequest, Page, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { formatDate } from '../lib/format';
import { assignableRoles } from '../lib/roles';
import { useAsync } from '../lib/use-async';

/** Pending requests to join: approve with a role, or reject. */
export function MembershipRequestsSection({ org, role, onDecided }: { org: string; role: Role; onDecided(): void }) {
  const path = `/orgs/${encodeURIComponent(org)}/membership-requests`;
  const list = useAsync(() => get<Page<MembershipRequest>>(path), [org]);
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const [error, setError] = useState<ApiError>();

  const decide = async (request: MembershipRequest, decision: 'approve' | 'reject') => {
    setError(undefined);
    try {
      await post(`${path}/${encodeURIComponent(request.uid)}/${decision}`, decision === 'approve' ? { role: roles[request.uid] ?? 'user' } : undefined);
      onDecided();
    } catch (caught) {
      setError(asApiError(caught));
    }
    list.reload();
  };

  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Requests to join</h2>
      <ErrorBanner error={list.error ?? error} />
      {list.data?.items.length ? (
        <ul class="plain-list">
          {list.data.items.map((request) => (
            <li key={request.uid} class="card">
              <p>
                <strong>{request.user.name || request.user.email}</strong> <span class="mono">{request.user.email}</span> asked on{' '}
                {formatDate(request.createdAt)}
                {request.via !== 'request' ? ` (via ${request.via.replace('_', ' ')})` : ''}.
              </p>
              {request.message ? <blockquote>{request.message}</blockquote> : null}
              <div class="button-row">
                <label for={`request-role-${request.uid}`}>Role</label>
                <select
                  id={`request-role-${request.uid}`}
                  value={roles[request.uid] ?? 'user'}
                  onChange={(e) => setRoles({ ...roles, [request.uid]: (e.currentTarget as HTMLSelectElement).value as Role })}
                >
                  {assignableRoles(role).map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
                <button type="button" class="primary" onClick={() => void decide(request, 'approve')}>
                  Approve
                </button>
                <button type="button" class="danger" onClick={() => void decide(request, 'reject')}>
                  Reject
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : list.data ? (
        <p>No pending requests.</p>
      ) : null}
    </section>
  );
}
