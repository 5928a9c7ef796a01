import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import { asApiError } from '../api/errors';
import type { CreatedInvitation, Invitation, Page, Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { FieldShell, issuesByPath, TextField } from '../components/fields';
import { formatDate } from '../lib/format';
import { assignableRoles } from '../lib/roles';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

/** Invitations by e-mail with a role; the link is shown once, and mailed when the server sends mail. */
export function InvitationsSection({ org, role }: { org: string; role: Role }) {
  const path = `/orgs/${encodeURIComponent(org)}/invitations`;
  const list = useAsync(() => get<Page<Invitation>>(path), [org]);
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<Role>('user');
  const [created, setCreated] = useState<CreatedInvitation>();
  const { busy, error, setError, run } = useAction();
  const issues = issuesByPath(error?.issues ?? []);

  const invite = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      setCreated(await post<CreatedInvitation>(path, { email, role: inviteRole }));
      setEmail('');
      list.reload();
    });
  };

  const revoke = async (invitation: Invitation) => {
    setError(undefined);
    try {
      await del(`${path}/${encodeURIComponent(invitation.uid)}`);
      list.reload();
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      {created ? (
        <Notice>
          <p>
            {created.email} is invited as {created.role}. Send them this link (valid until {formatDate(created.expiresAt)}); it is not shown again:
          </p>
          <label for="invitation-url">Invitation link</label>
          <input id="invitation-url" class="mono" readOnly value={created.url} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        </Notice>
      ) : null}
      <form class="card" onSubmit={invite} aria-label="Invite someone">
        <ErrorBanner error={error} title="Not invited" />
        <TextField id="invite-email" label="E-mail" type="email" required value={email} onValue={setEmail} errors={issues.get('email')} />
        <FieldShell id="invite-role" label="Role" errors={issues.get('role')}>
          <select id="invite-role" value={inviteRole} onChange={(e) => setInviteRole((e.currentTarget as HTMLSelectElement).value as Role)}>
            {assignableRoles(role).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </FieldShell>
        <button type="submit" disabled={busy}>
          Invite
        </button>
      </form>
      <ErrorBanner error={list.error} />
      {list.data?.items.length ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((invitation) => (
                <tr key={invitation.uid}>
                  <td class="mono">{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td>{invitation.status}</td>
                  <td>{formatDate(invitation.expiresAt)}</td>
                  <td>
                    {invitation.status === 'pending' ? (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => void revoke(invitation)}
                        aria-label={`Withdraw the invitation of ${invitation.email}`}
                      >
                        Withdraw
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : list.data ? (
        <p>No invitations.</p>
      ) : null}
    </section>
  );
}
