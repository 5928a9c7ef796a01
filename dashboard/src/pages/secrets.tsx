import { useState } from 'preact/hooks';
import { del, get, put } from '../api/client';
import type { List, Role, SecretSummary, SecretWritten } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { Link } from '../components/link';
import { formatDate } from '../lib/format';
import { isAdmin } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

/**
 * The organization's secrets (admins): names and the checks that use them, a form that sets a
 * value, and deletion. Values are write-only: the page never shows or receives one back.
 */
export function SecretsPage({ org, role }: { org: string; role?: Role }) {
  usePageTitle('Secrets');
  const path = `/orgs/${encodeURIComponent(org)}/secrets`;
  const list = useAsync(() => get<List<SecretSummary>>(path), [org]);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [notice, setNotice] = useState<string>();
  const action = useAction();

  if (!isAdmin(role)) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>Secrets</h1>
        <p>Only admins and owners manage the organization's secrets.</p>
      </main>
    );
  }

  const save = (event: Event) => {
    event.preventDefault();
    setNotice(undefined);
    void action.run(async () => {
      const result = await put<SecretWritten>(`${path}/${encodeURIComponent(name.trim())}`, { value });
      // The value leaves the page as soon as it is stored.
      setValue('');
      setName('');
      setNotice(`${result.created ? 'Set' : 'Replaced'} secret ${result.name}.`);
      list.reload();
    });
  };

  const remove = (secret: SecretSummary) => {
    const use = secret.usedBy.length ? ` ${secret.usedBy.length} check(s) use it and will fail.` : '';
    if (!window.confirm(`Delete secret ${secret.name}?${use}`)) return;
    setNotice(undefined);
    void action.run(async () => {
      await del(`${path}/${encodeURIComponent(secret.name)}`);
      setNotice(`Deleted secret ${secret.name}.`);
      list.reload();
    });
  };

  const issues = issuesByPath(action.error?.issues ?? []);
  return (
    <main id="main">
      <h1 tabIndex={-1}>Secrets</h1>
      <p>
        Checks refer to a secret as <code>{'{{secrets.NAME}}'}</code> in their credential fields (passwords, Authorization headers). The value is put in only
        when the check runs; nobody can read it back here or through the API. Anyone who can edit checks can send a secret to a server of their choosing, so
        give that role only to people you would trust with these credentials.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={list.error ?? action.error} />
      <section aria-labelledby="secrets-list-title">
        <h2 id="secrets-list-title">Stored secrets</h2>
        {list.data?.items.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Updated</th>
                <th scope="col">Used by</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((secret) => (
                <tr key={secret.name}>
                  <td class="mono">{secret.name}</td>
                  <td>{formatDate(secret.updatedAt)}</td>
                  <td>
                    {secret.usedBy.length
                      ? secret.usedBy.map((slug, i) => (
                          <span key={slug}>
                            {i > 0 ? ', ' : ''}
                            <Link href={`/orgs/${encodeURIComponent(org)}/checks/${encodeURIComponent(slug)}`}>{slug}</Link>
                          </span>
                        ))
                      : 'unused'}
                  </td>
                  <td>
                    <button type="button" class="danger" disabled={action.busy} onClick={() => remove(secret)}>
                      Delete {secret.name}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : list.data ? (
          <p>No secrets yet.</p>
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
      </section>
      <section aria-labelledby="secret-set-title">
        <h2 id="secret-set-title">Set a secret</h2>
        <form class="card" onSubmit={save} noValidate>
          <TextField
            id="secret-name"
            label="Name"
            value={name}
            onValue={(v) => setName(v.toUpperCase())}
            autoComplete="off"
            spellcheck={false}
            hint="Upper-case letters, digits and _, starting with a letter, e.g. ORDERS_DB_PASSWORD. An existing name is replaced."
            errors={issues.get('name')}
          />
          <TextField
            id="secret-value"
            label="Value"
            type="password"
            value={value}
            onValue={setValue}
            autoComplete="new-password"
            errors={issues.get('value')}
          />
          <button type="submit" class="primary" disabled={action.busy || !name.trim() || !value}>
            Save secret
          </button>
        </form>
      </section>
    </main>
  );
}
