import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api/client';
import { STATUS_PAGE_UPDATE_STATES } from '../../../contract/status-pages';
import type { Page, StatusPageUpdate, StatusPageUpdateState, SubscriberCounts } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { FieldShell, issuesByPath, TextField } from '../components/fields';
import { formatDate } from '../lib/format';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

const STATE_WORDS: Record<StatusPageUpdateState, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
  maintenance: 'Maintenance',
};

interface Draft {
  title: string;
  body: string;
  state: StatusPageUpdateState;
  checks: string[];
}

const EMPTY: Draft = { title: '', body: '', state: 'investigating', checks: [] };

/** The form of an update: title, state, body (plain text or the Markdown subset) and the checks it names. */
function UpdateForm(props: {
  id: string;
  initial: Draft;
  checks: Array<{ slug: string; name: string }>;
  submitLabel: string;
  onSubmit(draft: Draft): Promise<void>;
  onCancel?(): void;
}) {
  const [draft, setDraft] = useState(props.initial);
  const action = useAction();
  const issues = issuesByPath(action.error?.issues ?? []);
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await props.onSubmit(draft);
      if (!props.onCancel) setDraft(EMPTY);
    });
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-label={props.submitLabel}>
      <ErrorBanner error={action.error} />
      <TextField id={`${props.id}-title`} label="Title" value={draft.title} onValue={(title) => setDraft({ ...draft, title })} errors={issues.get('title')} />
      <FieldShell id={`${props.id}-state`} label="State" errors={issues.get('state')}>
        <select
          id={`${props.id}-state`}
          value={draft.state}
          onChange={(event) => setDraft({ ...draft, state: (event.currentTarget as HTMLSelectElement).value as StatusPageUpdateState })}
        >
          {STATUS_PAGE_UPDATE_STATES.map((state) => (
            <option key={state} value={state}>
              {STATE_WORDS[state]}
            </option>
          ))}
        </select>
      </FieldShell>
      <FieldShell
        id={`${props.id}-body`}
        label="Message"
        hint="Plain text, or **bold**, *italic*, `code`, [links](https://…) and lines starting with - for a list."
        errors={issues.get('body')}
      >
        <textarea
          id={`${props.id}-body`}
          rows={5}
          value={draft.body}
          onInput={(event) => setDraft({ ...draft, body: (event.currentTarget as HTMLTextAreaElement).value })}
        />
      </FieldShell>
      {props.checks.length ? (
        <fieldset>
          <legend>Affected checks (optional)</legend>
          {props.checks.map((check) => (
            <label key={check.slug} class="checkbox">
              <input
                type="checkbox"
                checked={draft.checks.includes(check.slug)}
                onChange={(event) =>
                  setDraft({
                    ...draft,
                    checks: (event.currentTarget as HTMLInputElement).checked
                      ? [...draft.checks, check.slug]
                      : draft.checks.filter((slug) => slug !== check.slug),
                  })
                }
              />{' '}
              {check.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div class="button-row">
        <button type="submit" class="primary" disabled={action.busy || !draft.title.trim()}>
          {props.submitLabel}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * The updates of a status page in its editor: post one (a public page mails its subscribers),
 * edit one, resolve an open one, delete one; and how many addresses subscribe, with their
 * export and removal.
 */
export function StatusPageUpdates({
  path,
  checks,
  writable,
  onChanged,
}: {
  path: string;
  checks: Array<{ slug: string; name: string }>;
  writable: boolean;
  onChanged(): void;
}) {
  const updates = useAsync(() => get<Page<StatusPageUpdate>>(`${path}/updates`, { query: { limit: '200' } }), [path]);
  const [editing, setEditing] = useState<string>();
  const action = useAction();
  const names = new Map(checks.map((check) => [check.slug, check.name]));
  const changed = () => {
    updates.reload();
    onChanged();
  };
  const resolve = (update: StatusPageUpdate) =>
    void action.run(async () => {
      await patch(`${path}/updates/${update.uid}`, { state: 'resolved' });
      changed();
    });
  const remove = (update: StatusPageUpdate) => {
    if (!window.confirm(`Delete the update "${update.title}"? It disappears from the public page.`)) return;
    void action.run(async () => {
      await del(`${path}/updates/${update.uid}`);
      changed();
    });
  };
  return (
    <section aria-labelledby="updates-title">
      <h2 id="updates-title">Updates</h2>
      {writable ? (
        <UpdateForm
          id="new-update"
          initial={EMPTY}
          checks={checks}
          submitLabel="Post update"
          onSubmit={async (draft) => {
            await post(`${path}/updates`, draft);
            changed();
          }}
        />
      ) : null}
      <ErrorBanner error={updates.error ?? action.error} />
      {updates.data ? (
        updates.data.items.length ? (
          <ol class="plain-list">
            {updates.data.items.map((update) =>
              editing === update.uid ? (
                <li key={update.uid}>
                  <UpdateForm
                    id={`edit-${update.uid}`}
                    initial={{ title: update.title, body: update.body, state: update.state, checks: update.checks }}
                    checks={checks}
                    submitLabel="Save update"
                    onCancel={() => setEditing(undefined)}
                    onSubmit={async (draft) => {
                      await patch(`${path}/updates/${update.uid}`, draft);
                      setEditing(undefined);
                      changed();
                    }}
                  />
                </li>
              ) : (
                <li key={update.uid} class="card">
                  <p>
                    <strong>{STATE_WORDS[update.state]}</strong>: {update.title}
                  </p>
                  <p class="update-text">{update.body}</p>
                  {update.checks.length ? <p class="hint">Affects: {update.checks.map((slug) => names.get(slug) ?? slug).join(', ')}</p> : null}
                  <p class="hint">
                    Posted {formatDate(update.createdAt)}
                    {update.resolvedAt ? `, resolved ${formatDate(update.resolvedAt)}` : ''}
                  </p>
                  {writable ? (
                    <div class="button-row">
                      {update.state !== 'resolved' ? (
                        <button type="button" disabled={action.busy} onClick={() => resolve(update)}>
                          Resolve
                        </button>
                      ) : null}
                      <button type="button" onClick={() => setEditing(update.uid)} aria-label={`Edit ${update.title}`}>
                        Edit
                      </button>
                      <button type="button" class="danger" disabled={action.busy} onClick={() => remove(update)} aria-label={`Delete ${update.title}`}>
                        Delete
                      </button>
                    </div>
                  ) : null}
                </li>
              ),
            )}
          </ol>
        ) : (
          <p>No updates yet.</p>
        )
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
      <StatusPageSubscribers path={path} writable={writable} />
    </section>
  );
}

/** Saves text as a file through the browser. */
function saveFile(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** How many addresses subscribe; the export (JSON or CSV) and removal by address, for members who may change the page. */
function StatusPageSubscribers({ path, writable }: { path: string; writable: boolean }) {
  const counts = useAsync(() => get<SubscriberCounts>(`${path}/subscribers`), [path]);
  const [address, setAddress] = useState('');
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  const exportAs = (format: 'json' | 'csv') =>
    void action.run(async () => {
      const text = await get<string>(`${path}/subscribers/export`, { query: { format }, text: true });
      saveFile(`subscribers.${format}`, format === 'csv' ? 'text/csv' : 'application/json', text);
    });
  const remove = (event: Event) => {
    event.preventDefault();
    setNotice(undefined);
    void action.run(async () => {
      await del(`${path}/subscribers/${encodeURIComponent(address.trim())}`);
      setAddress('');
      setNotice('Removed.');
      counts.reload();
    });
  };
  return (
    <>
      <h3>Subscribers</h3>
      <ErrorBanner error={counts.error ?? action.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {counts.data ? (
        <p>
          {counts.data.confirmed} confirmed {counts.data.confirmed === 1 ? 'address receives' : 'addresses receive'} the updates by e-mail
          {counts.data.unconfirmed ? `; ${counts.data.unconfirmed} not confirmed yet` : ''}.
        </p>
      ) : null}
      {writable ? (
        <>
          <div class="button-row">
            <button type="button" disabled={action.busy} onClick={() => exportAs('csv')}>
              Export as CSV
            </button>
            <button type="button" disabled={action.busy} onClick={() => exportAs('json')}>
              Export as JSON
            </button>
          </div>
          <form class="card" onSubmit={remove} aria-label="Remove a subscriber">
            <TextField id="remove-subscriber" label="Remove a subscriber (e-mail address)" type="email" value={address} onValue={setAddress} />
            <div class="button-row">
              <button type="submit" class="danger" disabled={action.busy || !address.trim()}>
                Remove subscriber
              </button>
            </div>
          </form>
        </>
      ) : null}
    </>
  );
}
