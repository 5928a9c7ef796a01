import { useState } from 'preact/hooks';
import { del, get, patch } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Account, Member, Page, Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { formatDate } from '../lib/format';
import { isAdmin, ROLES } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';
import { InvitationsSection } from './members-invitations';
import { MembershipRequestsSection } from './members-requests';

/** Members and their roles; admins also change roles, remove members, invite and decide requests. */
export function MembersPage({ org, role, account }: { org: string; role?: Role; account: Account }) {
  usePageTitle('Members');
  const path = `/orgs/${encodeURIComponent(org)}/members`;
  const members = useAsync(() => get<Page<Member>>(path), [org]);
  const [error, setError] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();
  const admin = isAdmin(role);
  // Granting or revoking owner is the owners' call (the server checks it again).
  const grantable = (target: Member) => (role === 'owner' ? ROLES : target.role === 'owner' ? [] : ROLES.filter((r) => r !== 'owner'));

  const changeRole = async (member: Member, next: Role) => {
    setError(undefined);
    setNotice(undefined);
    try {
      await patch(`${path}/${encodeURIComponent(member.uid)}`, { role: next });
      setNotice(`${member.email} is now ${next}.`);
    } catch (caught) {
      setError(asApiError(caught));
    }
    members.reload();
  };

  const remove = async (member: Member) => {
    if (!window.confirm(`Remove ${member.email} from ${org}? Their access tokens for it stop working.`)) return;
    setError(undefined);
    setNotice(undefined);
    try {
      await del(`${path}/${encodeURIComponent(member.uid)}`);
      setNotice(`${member.email} was removed.`);
    } catch (caught) {
      setError(asApiError(caught));
    }
    members.reload();
  };

  return (
    <main id="main">
      <h1 tabIndex={-1}>Members</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={members.error ?? error} />
      {members.data ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Members of {org}</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {admin ? (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.data.items.map((member) => {
                const options = grantable(member);
                const editable = admin && member.uid !== account.uid && options.length > 0;
                return (
                  <tr key={member.uid} data-member={member.email}>
                    <td>
                      {member.name ? `${member.name} ` : ''}
                      <span class="mono">{member.email}</span>
                      {member.uid === account.uid ? <span class="badge">you</span> : null}
                    </td>
                    <td>
                      {editable ? (
                        <select
                          aria-label={`Role of ${member.email}`}
                          value={member.role}
                          onChange={(e) => void changeRole(member, (e.currentTarget as HTMLSelectElement).value as Role)}
                        >
                          {options.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                      ) : (
                        member.role
                      )}
                    </td>
                    <td>{formatDate(member.joinedAt)}</td>
                    {admin ? (
                      <td>
                        {editable ? (
                          <button type="button" class="danger" onClick={() => void remove(member)} aria-label={`Remove ${member.email}`}>
                            Remove
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : members.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
      {admin ? (
        <>
          <InvitationsSection org={org} role={role!} />
          <MembershipRequestsSection org={org} role={role!} onDecided={members.reload} />
        </>
      ) : null}
    </main>
  );
}
