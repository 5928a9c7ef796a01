import { useEffect, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api/client';
import type { Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { CheckboxField, issuesByPath, TextField } from '../components/fields';
import { Link } from '../components/link';
import { navigate } from '../lib/router';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';
import { allChecks, badgeSnippets, publicPageUrl, statusPagesPath, type PublicStatus, type StatusPage } from './status-page-api';
import { StatusPagePreview } from './status-page-preview';
import { StatusPageUpdates } from './status-page-updates';

/** A text to copy, shown selectable, with a button that copies it. */
function CopyField({ id, label, text }: { id: string; label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true));
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} class="mono" readOnly value={text} onFocus={(event) => (event.currentTarget as HTMLInputElement).select()} />
      <div class="button-row">
        <button type="button" onClick={copy} aria-label={`Copy: ${label}`}>
          Copy
        </button>
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </div>
    </div>
  );
}

/**
 * Creates (no `slug`) or edits a status page: title, address, description, whether it is public,
 * and which checks it shows in which order. An existing page also shows its updates and
 * subscribers, its preview, its public link and the badge snippets of its checks.
 */
export function StatusPageEditorPage({ org, slug, role }: { org: string; slug?: string; role?: Role }) {
  usePageTitle(slug ? 'Edit status page' : 'New status page');
  const path = statusPagesPath(org);
  const checks = useAsync(() => allChecks(org), [org]);
  const page = useAsync(() => (slug ? get<StatusPage>(`${path}/${encodeURIComponent(slug)}`) : Promise.resolve(undefined)), [org, slug]);
  const preview = useAsync(() => (slug ? get<PublicStatus>(`${path}/${encodeURIComponent(slug)}/preview`) : Promise.resolve(undefined)), [org, slug]);
  const [title, setTitle] = useState('');
  const [newSlug, setNewSlug] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [adding, setAdding] = useState('');
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  const writable = canWrite(role);

  useEffect(() => {
    if (!page.data) return;
    setTitle(page.data.title);
    setNewSlug(page.data.slug);
    setDescription(page.data.description ?? '');
    setPublic(page.data.public);
    setChosen(page.data.checks);
  }, [page.data]);

  const names = new Map((checks.data ?? []).map((check) => [check.slug, check.name]));
  const available = (checks.data ?? []).filter((check) => !chosen.includes(check.slug));
  const move = (index: number, by: number) => {
    const next = [...chosen];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item);
    setChosen(next);
  };

  const save = (event: Event) => {
    event.preventDefault();
    setNotice(undefined);
    const body = { title, ...(newSlug.trim() ? { slug: newSlug.trim() } : {}), description: description.trim() || null, public: isPublic, checks: chosen };
    void action.run(async () => {
      if (slug) {
        const saved = await patch<StatusPage>(`${path}/${encodeURIComponent(slug)}`, body);
        page.setData(saved);
        setNotice('Saved.');
        if (saved.slug !== slug) navigate(`/orgs/${encodeURIComponent(org)}/status-pages/${encodeURIComponent(saved.slug)}`, { replace: true });
        else preview.reload();
      } else {
        const created = await post<StatusPage>(path, body);
        navigate(`/orgs/${encodeURIComponent(org)}/status-pages/${encodeURIComponent(created.slug)}`);
      }
    });
  };

  const remove = () => {
    if (!slug || !window.confirm(`Delete the status page "${title}"? Its public address stops working.`)) return;
    void action.run(async () => {
      await del(`${path}/${encodeURIComponent(slug)}`);
      navigate(`/orgs/${encodeURIComponent(org)}/status-pages`);
    });
  };

  const issues = issuesByPath(action.error?.issues ?? []);
  const link = slug ? publicPageUrl(org, slug) : undefined;
  return (
    <main id="main">
      <p>
        <Link href={`/orgs/${encodeURIComponent(org)}/status-pages`}>Status pages</Link>
      </p>
      <h1 tabIndex={-1}>{slug ? (page.data?.title ?? slug) : 'New status page'}</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={page.error ?? checks.error ?? action.error} />
      {slug && !page.data && !page.error ? <p aria-busy="true">Loading…</p> : null}
      {(!slug || page.data) && writable ? (
        <form class="card" onSubmit={save} noValidate aria-label="Status page">
          <TextField id="page-title" label="Title" value={title} onValue={setTitle} errors={issues.get('title')} />
          <TextField
            id="page-slug"
            label="Address"
            value={newSlug}
            onValue={setNewSlug}
            spellcheck={false}
            hint={`The page's address is /status/${org}/${newSlug || '…'}; left empty, it is made from the title.`}
            errors={issues.get('slug')}
          />
          <TextField id="page-description" label="Description (optional)" value={description} onValue={setDescription} errors={issues.get('description')} />
          <CheckboxField
            id="page-public"
            label="Public: anyone with the address can see this page"
            checked={isPublic}
            onChange={setPublic}
            errors={issues.get('public')}
          />
          <fieldset>
            <legend>Checks on the page, in order</legend>
            {chosen.length ? (
              <ol>
                {chosen.map((check, index) => {
                  const name = names.get(check) ?? check;
                  return (
                    <li key={check}>
                      {name} <span class="hint mono">{check}</span>
                      <span class="button-row">
                        <button type="button" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Move ${name} up`}>
                          Up
                        </button>
                        <button type="button" disabled={index === chosen.length - 1} onClick={() => move(index, 1)} aria-label={`Move ${name} down`}>
                          Down
                        </button>
                        <button type="button" onClick={() => setChosen(chosen.filter((c) => c !== check))} aria-label={`Remove ${name}`}>
                          Remove
                        </button>
                      </span>
                    </li>
                  );
                })}
              </ol>
            ) : (
              <p>No checks yet.</p>
            )}
            {issues.get('checks')?.map((message) => (
              <p class="field-error" key={message}>
                {message}
              </p>
            ))}
            <div class="field">
              <label for="page-add-check">Add a check</label>
              <select id="page-add-check" value={adding} onChange={(event) => setAdding((event.currentTarget as HTMLSelectElement).value)}>
                <option value="">Choose a check…</option>
                {available.map((check) => (
                  <option key={check.slug} value={check.slug}>
                    {check.name} ({check.slug})
                  </option>
                ))}
              </select>
              <div class="button-row">
                <button
                  type="button"
                  disabled={!adding}
                  onClick={() => {
                    setChosen([...chosen, adding]);
                    setAdding('');
                  }}
                >
                  Add check
                </button>
              </div>
            </div>
          </fieldset>
          <div class="button-row">
            <button type="submit" class="primary" disabled={action.busy || !title.trim()}>
              {slug ? 'Save status page' : 'Create status page'}
            </button>
            {slug ? (
              <button type="button" class="danger" disabled={action.busy} onClick={remove}>
                Delete status page
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
      {slug && page.data ? (
        <>
          <StatusPageUpdates
            path={`${path}/${encodeURIComponent(page.data.slug)}`}
            checks={page.data.checks.map((check) => ({ slug: check, name: names.get(check) ?? check }))}
            writable={writable}
            onChanged={preview.reload}
          />
          <section aria-labelledby="share-title">
            <h2 id="share-title">Link and badges</h2>
            {page.data.public ? null : <Notice kind="info">This page is private: its address and badges answer "not found" until you make it public.</Notice>}
            <CopyField id="share-link" label="Public link" text={link!} />
            {page.data.checks.map((check) => (
              <details key={check} class="card">
                <summary>Badges of {names.get(check) ?? check}</summary>
                {badgeSnippets(org, { slug: check, name: names.get(check) ?? check }, link!).map((snippet, i) => (
                  <CopyField key={snippet.label} id={`badge-${check}-${i}`} label={snippet.label} text={snippet.text} />
                ))}
              </details>
            ))}
          </section>
          <section aria-labelledby="preview-title">
            <h2 id="preview-title">Preview</h2>
            <ErrorBanner error={preview.error} />
            {preview.data ? <StatusPagePreview status={preview.data} /> : <p aria-busy="true">Loading…</p>}
          </section>
        </>
      ) : null}
    </main>
  );
}
