import { useState } from 'preact/hooks';
import { del, get, patch } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Organization, Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { navigate } from '../lib/router';
import { isAdmin } from '../lib/roles';
import { refreshAccount } from '../lib/session';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';
import { WorkspaceSection } from './org-workspace';
import { SingleSignOnSection } from './org-single-sign-on';

/** The organization's settings: member limit and sign-up pattern (admins), name and deletion (owners). */
export function OrgSettingsPage({ org, role }: { org: string; role?: Role }) {
  usePageTitle('Organization settings');
  const path = `/orgs/${encodeURIComponent(org)}`;
  const loaded = useAsync(() => get<Organization>(path), [org]);
  if (loaded.error || !loaded.data) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>Organization settings</h1>
        {loaded.error ? <ErrorBanner error={loaded.error} /> : <p aria-busy="true">Loading…</p>}
      </main>
    );
  }
  return <OrgSettingsEditor org={org} role={role} stored={loaded.data} onSaved={loaded.setData} />;
}

/** The settings form, starting from the stored organization: its first paint already shows them. */
function OrgSettingsEditor({ org, role, stored: o, onSaved }: { org: string; role?: Role; stored: Organization; onSaved(org: Organization): void }) {
  const path = `/orgs/${encodeURIComponent(org)}`;
  const [name, setName] = useState(o.name);
  const [limit, setLimit] = useState(o.memberLimit == null ? '' : String(o.memberLimit));
  const [pattern, setPattern] = useState(o.registrationEmailPattern ?? '');
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const owner = role === 'owner';
  const issues = issuesByPath(error?.issues ?? []);
  const admin = isAdmin(role);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    const body: Record<string, unknown> = {
      memberLimit: limit.trim() === '' ? null : /^\d+$/.test(limit.trim()) ? Number(limit.trim()) : limit.trim(),
      registrationEmailPattern: pattern.trim() === '' ? null : pattern.trim(),
    };
    if (owner && name !== o.name) body.name = name;
    try {
      onSaved(await patch<Organization>(path, body));
      await refreshAccount();
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const remove = async () => {
    const typed = window.prompt(`Deleting ${o.slug} removes its checks, incidents, status pages and members for good. Type the slug to confirm.`);
    if (typed !== o.slug) return;
    setError(undefined);
    try {
      await del(path);
      await refreshAccount();
      navigate('/', { replace: true });
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <main id="main">
      <h1 tabIndex={-1}>Organization settings</h1>
      <p>
        <code>{o.slug}</code>: {o.memberCount} members{o.memberLimit ? ` of at most ${o.memberLimit}` : ''}. Your role: {o.role}.
      </p>
      {saved ? <Notice>Settings saved.</Notice> : null}
      <ErrorBanner error={error} title="Not saved" />
      {admin ? (
        <form class="card" onSubmit={save} noValidate>
          <TextField
            id="org-name"
            label="Name"
            value={name}
            onValue={setName}
            disabled={!owner}
            hint={owner ? undefined : 'Only an owner can rename the organization.'}
            errors={issues.get('name')}
          />
          <TextField
            id="org-limit"
            label="Member limit (optional)"
            inputMode="numeric"
            value={limit}
            onValue={setLimit}
            hint="Blank for no limit. At the limit, people can only ask to join."
            errors={issues.get('memberLimit')}
          />
          <TextField
            id="org-pattern"
            label="Sign-up e-mail pattern (optional)"
            value={pattern}
            onValue={setPattern}
            hint="A regular expression: new accounts whose verified address matches it may join without an invitation."
            errors={issues.get('registrationEmailPattern')}
          />
          <button type="submit" class="primary">
            Save settings
          </button>
        </form>
      ) : (
        <table class="kv">
          <tbody>
            <tr>
              <th scope="row">Name</th>
              <td>{o.name}</td>
            </tr>
            <tr>
              <th scope="row">Member limit</th>
              <td>{o.memberLimit ?? 'none'}</td>
            </tr>
          </tbody>
        </table>
      )}
      <WorkspaceSection org={org} admin={admin} />
      {admin ? <SingleSignOnSection org={org} /> : null}
      {owner ? (
        <section aria-labelledby="danger-title">
          <h2 id="danger-title">Delete the organization</h2>
          <button type="button" class="danger" onClick={() => void remove()}>
            Delete {o.slug}
          </button>
        </section>
      ) : null}
    </main>
  );
}
