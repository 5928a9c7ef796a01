import { useEffect, useState } from 'preact/hooks';
import { get, patch, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Check, CheckType, Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { CheckboxField, describedBy, FieldShell, issuesByPath, TextField } from '../components/fields';
import { Link } from '../components/link';
import { ObjectFields } from '../components/schema-form';
import { within } from '../components/schema-helpers';
import { labelsToText, textToLabels } from '../lib/labels';
import { mergePatchFrom } from '../lib/merge-patch';
import { navigate } from '../lib/router';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';

/** The common fields as the form holds them (text); the config is kept as the API wants it. */
interface Draft {
  name: string;
  slug: string;
  type: string;
  enabled: boolean;
  intervalSeconds: string;
  target: string;
  description: string;
  labels: string;
  timeoutMs: string;
  degradedResponseMs: string;
  failuresBeforeDown: string;
  successesBeforeUp: string;
  config: Record<string, unknown>;
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function draftOf(check: Partial<Check>): Draft {
  return {
    name: str(check.name),
    slug: str(check.slug),
    type: str(check.type),
    enabled: check.enabled ?? true,
    intervalSeconds: str(check.intervalSeconds),
    target: str(check.target),
    description: str(check.description),
    labels: labelsToText(check.labels),
    timeoutMs: str(check.thresholds?.timeoutMs),
    degradedResponseMs: str(check.thresholds?.degradedResponseMs),
    failuresBeforeDown: str(check.thresholds?.failuresBeforeDown),
    successesBeforeUp: str(check.thresholds?.successesBeforeUp),
    config: check.config ?? {},
  };
}

/** Blank means "use the default"; a number is sent as one, anything else as typed for the server to name. */
const num = (text: string): unknown => (text.trim() === '' ? undefined : /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text.trim());

function definitionOf(d: Draft): Record<string, unknown> {
  const thresholds = Object.fromEntries(
    (['timeoutMs', 'degradedResponseMs', 'failuresBeforeDown', 'successesBeforeUp'] as const).map((k) => [k, num(d[k])]).filter(([, v]) => v !== undefined),
  );
  const out: Record<string, unknown> = {
    name: d.name,
    type: d.type,
    enabled: d.enabled,
    target: d.target,
    config: d.config,
    labels: textToLabels(d.labels),
  };
  if (d.slug.trim()) out.slug = d.slug.trim();
  if (num(d.intervalSeconds) !== undefined) out.intervalSeconds = num(d.intervalSeconds);
  if (Object.keys(thresholds).length) out.thresholds = thresholds;
  if (d.description.trim()) out.description = d.description.trim();
  return out;
}

/** Create (no `slug`) or edit a check; the type's settings come from the catalog's JSON Schema. */
export function CheckFormPage({ org, slug, role }: { org: string; slug?: string; role?: Role }) {
  if (!canWrite(role)) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>{slug ? `Edit ${slug}` : 'New check'}</h1>
        <Notice kind="info">Your role in this organization can read checks but not change them.</Notice>
      </main>
    );
  }
  return <CheckForm org={org} slug={slug} />;
}

function CheckForm({ org, slug }: { org: string; slug?: string }) {
  usePageTitle(slug ? `Edit ${slug}` : 'New check');
  const base = `/orgs/${encodeURIComponent(org)}/checks`;
  const types = useAsync(() => get<CheckType[]>('/check-types'), []);
  const existing = useAsync(() => (slug ? get<Check>(`${base}/${encodeURIComponent(slug)}`) : Promise.resolve(undefined)), [org, slug]);
  const [draft, setDraft] = useState<Draft>();
  // Bumped whenever the values are replaced wholesale, so uncontrolled inputs re-mount.
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (draft) return;
    if (slug && existing.data) setDraft(draftOf(existing.data));
    else if (!slug && types.data) setDraft(draftOf({ type: types.data[0]?.type ?? 'http' }));
  }, [existing.data, types.data]);

  const loadError = types.error ?? existing.error;
  if (loadError || !draft || !types.data) {
    return (
      <main id="main" aria-busy={!loadError}>
        <h1 tabIndex={-1}>{slug ? `Edit ${slug}` : 'New check'}</h1>
        {loadError ? <ErrorBanner error={loadError} /> : <p>Loading…</p>}
      </main>
    );
  }
  const type = types.data.find((t) => t.type === draft.type);
  const issues = issuesByPath(error?.issues ?? []);
  const set = (patchDraft: Partial<Draft>) => setDraft({ ...draft, ...patchDraft });
  const replace = (next: Draft) => {
    setDraft(next);
    setVersion(version + 1);
  };

  const loadSample = async () => {
    setError(undefined);
    try {
      const sample = await get<Check>(`/check-types/${encodeURIComponent(draft.type)}/sample`);
      replace({ ...draftOf(sample), name: draft.name || sample.name, slug: slug ?? draft.slug });
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const definition = definitionOf(draft);
      const saved = slug
        ? await patch<Check>(`${base}/${encodeURIComponent(slug)}`, mergePatchFrom(definitionOfStored(existing.data!), definition))
        : await post<Check>(base, definition);
      navigate(`${base}/${encodeURIComponent(saved.slug)}`, { replace: !!slug });
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
      window.scrollTo(0, 0);
    }
  };

  const targetHint = type ? `${type.target.description}${type.target.example ? ` For example ${type.target.example}` : ''}` : undefined;
  return (
    <main id="main">
      <p>
        <Link href={slug ? `${base}/${encodeURIComponent(slug)}` : base}>← {slug ? 'Back to the check' : 'Checks'}</Link>
      </p>
      <h1 tabIndex={-1}>{slug ? `Edit ${existing.data?.name ?? slug}` : 'New check'}</h1>
      <ErrorBanner error={error} title={slug ? 'Not saved' : 'Not created'} />
      {error?.issues.length ? (
        <ul class="issue-list" aria-label="Problems">
          {error.issues.map((issue, i) => (
            <li key={i}>
              {issue.path ? <code>{issue.path}</code> : null} {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={submit} noValidate aria-label={slug ? 'Edit check' : 'New check'}>
        <div class="card">
          <FieldShell id="check-type" label="Type" hint={type?.description} errors={issues.get('type')}>
            <select
              id="check-type"
              value={draft.type}
              disabled={!!slug}
              aria-describedby={describedBy('check-type', type?.description, issues.get('type'))}
              onChange={(e) => replace({ ...draft, type: (e.currentTarget as HTMLSelectElement).value, config: {} })}
            >
              {types.data.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.title}
                </option>
              ))}
            </select>
          </FieldShell>
          <button type="button" onClick={() => void loadSample()}>
            Fill in the sample of this type
          </button>
        </div>
        <div class="card" key={`common-${version}`}>
          <TextField id="check-name" label="Name" required value={draft.name} onValue={(name) => set({ name })} errors={issues.get('name')} />
          <TextField
            id="check-slug"
            label="Slug (optional)"
            value={draft.slug}
            onValue={(v) => set({ slug: v })}
            hint="Identifies the check in URLs and imports; derived from the name when blank."
            errors={issues.get('slug')}
          />
          <TextField
            id="check-target"
            label="Target"
            required
            value={draft.target}
            placeholder={type?.target.example}
            onValue={(target) => set({ target })}
            hint={targetHint}
            errors={issues.get('target')}
          />
          <TextField
            id="check-interval"
            label="Interval in seconds (optional)"
            inputMode="numeric"
            value={draft.intervalSeconds}
            onValue={(v) => set({ intervalSeconds: v })}
            hint="How often the check runs; 60 when blank."
            errors={issues.get('intervalSeconds')}
          />
          <CheckboxField id="check-enabled" label="Enabled" checked={draft.enabled} onChange={(enabled) => set({ enabled })} errors={issues.get('enabled')} />
          <FieldShell id="check-description" label="Description (optional)" errors={issues.get('description')}>
            <textarea
              id="check-description"
              rows={2}
              value={draft.description}
              onInput={(e) => set({ description: (e.currentTarget as HTMLTextAreaElement).value })}
            />
          </FieldShell>
          <FieldShell id="check-labels" label="Labels (optional)" hint="One key=value per line." errors={within(issues, ['labels'])}>
            <textarea
              id="check-labels"
              rows={2}
              value={draft.labels}
              onInput={(e) => set({ labels: (e.currentTarget as HTMLTextAreaElement).value })}
              aria-describedby="check-labels-hint"
            />
          </FieldShell>
        </div>
        <fieldset class="card" key={`thresholds-${version}`}>
          <legend>Thresholds</legend>
          <div class="grid">
            <TextField
              id="thresholds-timeoutMs"
              label="Timeout in ms (optional)"
              inputMode="numeric"
              value={draft.timeoutMs}
              onValue={(v) => set({ timeoutMs: v })}
              errors={issues.get('thresholds.timeoutMs')}
            />
            <TextField
              id="thresholds-degradedResponseMs"
              label="Degraded above ms (optional)"
              inputMode="numeric"
              value={draft.degradedResponseMs}
              onValue={(v) => set({ degradedResponseMs: v })}
              errors={issues.get('thresholds.degradedResponseMs')}
            />
            <TextField
              id="thresholds-failuresBeforeDown"
              label="Failures before down (optional)"
              inputMode="numeric"
              value={draft.failuresBeforeDown}
              onValue={(v) => set({ failuresBeforeDown: v })}
              errors={issues.get('thresholds.failuresBeforeDown')}
            />
            <TextField
              id="thresholds-successesBeforeUp"
              label="Successes before up (optional)"
              inputMode="numeric"
              value={draft.successesBeforeUp}
              onValue={(v) => set({ successesBeforeUp: v })}
              errors={issues.get('thresholds.successesBeforeUp')}
            />
          </div>
        </fieldset>
        {type ? (
          <fieldset class="card" key={`config-${draft.type}-${version}`}>
            <legend>{type.title} settings</legend>
            <ObjectFields schema={type.schema} path={['config']} value={draft.config} issues={issues} onChange={(config) => set({ config })} />
          </fieldset>
        ) : null}
        <div class="button-row">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : slug ? 'Save changes' : 'Create check'}
          </button>
          <Link class="button" href={slug ? `${base}/${encodeURIComponent(slug)}` : base}>
            Cancel
          </Link>
        </div>
      </form>
    </main>
  );
}

/** The stored check as a definition (without its timestamps), the base of an edit's patch. */
function definitionOfStored(check: Check): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, ...definition } = check;
  return definition;
}
