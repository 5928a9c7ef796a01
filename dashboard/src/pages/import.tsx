import { useState } from 'preact/hooks';
import { request } from '../api/client';
import { ApiError, asApiError } from '../api/errors';
import { IMPORT_WARNING_TITLES } from '../../../contract/import-warnings';
import type { ImportCheckEntry, ImportResult, ImportSource, ImportWarning, ImportWarningCode, Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { describedBy, FieldShell } from '../components/fields';
import { Link } from '../components/link';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { IMPORT_SOURCES, type SourceInfo } from './import-sources';

/**
 * Checks, Import: pick a source, give its input, preview (the same call with dryRun=true),
 * read the warnings, confirm. Matching is by slug, and running it again changes only what
 * changed in the source since the last import (a field changed here too is kept, or overwritten).
 */
export function ImportPage({ org, role }: { org: string; role?: Role }) {
  usePageTitle('Import checks');
  const [source, setSource] = useState<ImportSource>('configfile-monitor');
  const [text, setText] = useState('');
  const [key, setKey] = useState('');
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<ImportResult>();
  const [result, setResult] = useState<ImportResult>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<'preview' | 'apply'>();
  const [overwrite, setOverwrite] = useState(false);
  const info = IMPORT_SOURCES.find((s) => s.source === source)!;
  const checksBase = `/orgs/${encodeURIComponent(org)}/checks`;

  if (!canWrite(role)) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>Import checks</h1>
        <Notice kind="info">Your role in this organization can read checks but not import them.</Notice>
      </main>
    );
  }

  // Any change of input makes the preview stale: what is confirmed is always what was previewed.
  const changed = () => {
    setPreview(undefined);
    setResult(undefined);
    setError(undefined);
  };

  const body = (): { raw: Blob | string; contentType: string } | undefined => {
    if (info.key && key.trim()) return { raw: key.trim(), contentType: 'text/plain; charset=utf-8' };
    if (info.input !== 'token' && file) return { raw: file, contentType: 'application/octet-stream' };
    if (!text.trim()) return undefined;
    return { raw: info.input === 'token' ? text.trim() : text, contentType: 'text/plain; charset=utf-8' };
  };

  const run = async (dryRun: boolean) => {
    const input = body();
    if (!input) {
      const missing =
        info.input === 'token'
          ? 'Enter the API token first.'
          : info.key
            ? `Enter the ${info.key.label}, or paste the listing or choose a file, first.`
            : 'Paste the input or choose a file first.';
      setError(new ApiError(0, 'INPUT_MISSING', missing));
      return;
    }
    setBusy(dryRun ? 'preview' : 'apply');
    setError(undefined);
    try {
      const answer = await request<ImportResult>('POST', `/orgs/${encodeURIComponent(org)}/checks/import/convert`, {
        // The confirmed apply is held to the preview: if it would now do something else, 409 and nothing is written.
        query: { source, ...(overwrite ? { overwrite: 'true' } : {}), ...(dryRun ? { dryRun: 'true' } : preview?.digest ? { expect: preview.digest } : {}) },
        raw: input.raw,
        contentType: input.contentType,
      });
      if (dryRun) setPreview(answer);
      else {
        setResult(answer);
        setPreview(undefined);
      }
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <main id="main" class="page-import">
      <p>
        <Link href={checksBase}>← Checks</Link>
      </p>
      <h1 tabIndex={-1}>Import checks</h1>
      <p class="lead">
        Bring monitors over from another tool. Checks are matched by slug: an existing one is updated, never duplicated, so you can run an import again; it then
        changes only what changed in the source since the last import, and keeps what was changed here. Secrets, notification settings and history are not
        carried over.
      </p>

      {result ? (
        <ImportDone result={result} checksBase={checksBase} onAgain={() => setResult(undefined)} />
      ) : (
        <>
          <form
            class="card"
            onSubmit={(event) => {
              event.preventDefault();
              void run(true);
            }}
            aria-label="Import input"
          >
            <fieldset>
              <legend>Source</legend>
              {IMPORT_SOURCES.map((s) => (
                <div class="field-checkbox" key={s.source}>
                  <input
                    type="radio"
                    name="source"
                    id={`source-${s.source}`}
                    value={s.source}
                    checked={source === s.source}
                    aria-describedby={`source-${s.source}-hint`}
                    onChange={() => {
                      setSource(s.source);
                      setText('');
                      setKey('');
                      setFile(undefined);
                      changed();
                    }}
                  />
                  <label for={`source-${s.source}`}>
                    {s.title} <code class="source-key">({s.source})</code>
                  </label>
                  <p class="hint" id={`source-${s.source}-hint`}>
                    {s.description}
                  </p>
                </div>
              ))}
            </fieldset>
            <SourceInput
              key={source}
              info={info}
              text={text}
              onText={(value) => {
                setText(value);
                changed();
              }}
              apiKey={key}
              onKey={(value) => {
                setKey(value);
                changed();
              }}
              onFile={(value) => {
                setFile(value);
                changed();
              }}
            />
            <div class="field-checkbox">
              <input
                type="checkbox"
                id="import-overwrite"
                checked={overwrite}
                aria-describedby="import-overwrite-hint"
                onChange={(e) => {
                  setOverwrite((e.currentTarget as HTMLInputElement).checked);
                  changed();
                }}
              />
              <label for="import-overwrite">Take the source's value where a field was changed here too</label>
              <p class="hint" id="import-overwrite-hint">
                Running an import again changes only what changed in the source since the last import. A field changed both here and in the source is kept as it
                is here unless this is ticked.
              </p>
            </div>
            <ErrorBanner error={error} title={error?.code === 'INVALID_IMPORT_INPUT' ? 'The input cannot be read' : undefined} />
            <button type="submit" class="primary" disabled={!!busy}>
              {busy === 'preview' ? 'Previewing…' : 'Import preview'}
            </button>
          </form>
          {preview ? (
            <section aria-labelledby="preview-title" class="import-preview">
              <h2 id="preview-title" tabIndex={-1}>
                Preview: nothing has been written yet
              </h2>
              <ImportSummary result={preview} checksBase={checksBase} />
              <div class="button-row">
                <button type="button" class="primary" onClick={() => void run(false)} disabled={!!busy}>
                  {busy === 'apply' ? 'Importing…' : `Confirm import (${preview.created} new, ${preview.updated} updated)`}
                </button>
                <button type="button" onClick={changed}>
                  Cancel
                </button>
              </div>
            </section>
          ) : null}
        </>
      )}
    </main>
  );
}

function SourceInput({
  info,
  text,
  onText,
  onFile,
  apiKey,
  onKey,
}: {
  info: SourceInfo;
  text: string;
  onText(v: string): void;
  onFile(f: File | undefined): void;
  apiKey: string;
  onKey(v: string): void;
}) {
  if (info.input === 'token') {
    return <SecretField id="import-token" label="API token" hint="Sent to this server only, used for one request, not stored." value={text} onValue={onText} />;
  }
  const fileHint = info.multipleFiles
    ? 'Choose every file at once (Ctrl- or Cmd-click); files take precedence over pasted text.'
    : 'A file takes precedence over pasted text.';
  return (
    <>
      {info.key ? <SecretField id="import-key" label={info.key.label} hint={info.key.hint} value={apiKey} onValue={onKey} /> : null}
      <FieldShell id="import-file" label={info.key ? 'Or a saved listing: file' : info.multipleFiles ? 'Files' : 'File'} hint={fileHint}>
        <input
          id="import-file"
          type="file"
          accept={info.accept}
          multiple={info.multipleFiles}
          aria-describedby={describedBy('import-file', fileHint)}
          onChange={(e) => {
            const files = [...((e.currentTarget as HTMLInputElement).files ?? [])];
            if (files.length > 1) void fileBundle(files).then(onFile);
            else onFile(files[0]);
          }}
        />
      </FieldShell>
      <FieldShell id="import-text" label={`Or paste: ${info.pasteLabel}`}>
        <textarea id="import-text" rows={10} spellcheck={false} value={text} onInput={(e) => onText((e.currentTarget as HTMLTextAreaElement).value)} />
      </FieldShell>
    </>
  );
}

/** A token or key field: hidden as typed, never remembered by the browser. */
function SecretField({ id, label, hint, value, onValue }: { id: string; label: string; hint: string; value: string; onValue(v: string): void }) {
  return (
    <FieldShell id={id} label={label} hint={hint}>
      <input
        id={id}
        type="password"
        autoComplete="off"
        spellcheck={false}
        value={value}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
        aria-describedby={`${id}-hint`}
      />
    </FieldShell>
  );
}

/** Several chosen files as the one body the import takes: the file bundle {"files": {name: text}} (docs/import.md). */
async function fileBundle(files: File[]): Promise<File> {
  const entries = await Promise.all(files.map(async (file) => [file.name, await file.text()] as const));
  return new File([JSON.stringify({ files: Object.fromEntries(entries) })], 'files.json', { type: 'application/json' });
}

/** A field's value in a change: JSON, or (none) when the field is absent. */
const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

/** An existing check's field changes (`intervalSeconds 60 → 300`) and its fields changed on both sides. */
function FieldChanges({ check }: { check: ImportCheckEntry }) {
  if (!check.changes && !check.conflicts) return null;
  return (
    <ul class="field-changes">
      {(check.changes ?? []).map((change) => (
        <li key={`change-${change.field}`} data-field={change.field}>
          <code>{change.field}</code> {shown(change.from)} → {shown(change.to)}
        </li>
      ))}
      {(check.conflicts ?? []).map((conflict) => (
        <li key={`conflict-${conflict.field}`} class="field-conflict" data-conflict={conflict.field}>
          Changed here and in the source: <code>{conflict.field}</code> here {shown(conflict.here)}, source {shown(conflict.source)}
          {conflict.taken === 'here' ? ' (kept as it is here)' : " (the source's value is taken)"}
        </li>
      ))}
    </ul>
  );
}

const ACTION_TEXT: Record<ImportCheckEntry['action'], string> = {
  create: 'new',
  update: 'update',
  unchanged: 'unchanged',
  conflict: 'left alone: owned elsewhere',
  skip: 'skipped',
};

/** Counts, each check's action (skipped items with their reason), and the warnings grouped by kind. */
export function ImportSummary({ result, checksBase }: { result: ImportResult; checksBase: string }) {
  const groups = new Map<ImportWarningCode, ImportWarning[]>();
  for (const warning of result.warnings) groups.set(warning.code, [...(groups.get(warning.code) ?? []), warning]);
  // A check can be opened once it exists: after the import, or in a preview when it is there already.
  const existing = new Set(result.checks.filter((entry) => entry.slug && (!result.dryRun || entry.action !== 'create')).map((entry) => entry.slug));
  const checkLink = (slug: string | undefined, text: string) =>
    slug && existing.has(slug) ? <Link href={`${checksBase}/${encodeURIComponent(slug)}`}>{text}</Link> : text;
  return (
    <>
      <ul class="counts" aria-label="Counts">
        <li>
          <strong data-count="created">{result.created}</strong> new
        </li>
        <li>
          <strong data-count="updated">{result.updated}</strong> updated
        </li>
        <li>
          <strong data-count="unchanged">{result.unchanged}</strong> unchanged
        </li>
        {result.conflicts ? (
          <li>
            <strong data-count="conflicts">{result.conflicts}</strong> left alone
          </li>
        ) : null}
        <li>
          <strong data-count="skipped">{result.skipped}</strong> skipped
        </li>
        <li>
          <strong data-count="warnings">{result.warnings.length}</strong> warnings
        </li>
      </ul>
      {result.checks.length ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Checks and what happens to each</caption>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Type</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {result.checks.map((check, i) => (
                <tr key={`${check.slug ?? check.name}-${i}`} data-action={check.action} data-slug={check.slug}>
                  <td>
                    {checkLink(check.slug, check.name)} {check.slug ? <code>{check.slug}</code> : null}
                  </td>
                  <td>{check.type ?? '—'}</td>
                  <td>
                    {ACTION_TEXT[check.action]}
                    <FieldChanges check={check} />
                    {check.action === 'skip' && check.reason ? (
                      <p class="hint skip-reason">
                        {IMPORT_WARNING_TITLES[check.reason]}
                        {check.message ? `: ${check.message}` : ''}
                      </p>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {groups.size ? (
        <section aria-labelledby="warnings-title">
          <h3 id="warnings-title">Warnings</h3>
          {[...groups].map(([code, warnings]) => (
            <details key={code} class="warning-group" data-code={code} open={groups.size <= 3}>
              <summary>
                {IMPORT_WARNING_TITLES[code] ?? code} ({warnings.length})
              </summary>
              <ul>
                {warnings.map((w, i) => (
                  <li key={i}>
                    <strong>{checkLink(w.slug, w.item)}</strong>
                    {w.field ? (
                      <>
                        {' '}
                        <code>{w.field}</code>
                      </>
                    ) : null}
                    : {w.message}
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </section>
      ) : null}
    </>
  );
}

function ImportDone({ result, checksBase, onAgain }: { result: ImportResult; checksBase: string; onAgain(): void }) {
  const managed = `svc-managed=${result.source}`;
  return (
    <section aria-labelledby="done-title">
      <h2 id="done-title" tabIndex={-1}>
        Import done
      </h2>
      <Notice>
        {result.created} checks created, {result.updated} updated, {result.unchanged} unchanged, {result.skipped} skipped.
      </Notice>
      <ImportSummary result={result} checksBase={checksBase} />
      <div class="button-row">
        <Link class="button primary" href={`${checksBase}?label=${encodeURIComponent(managed)}`}>
          See the imported checks
        </Link>
        <button type="button" onClick={onAgain}>
          Import more
        </button>
      </div>
    </section>
  );
}
