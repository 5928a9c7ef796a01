import { useState } from 'preact/hooks';
import { get, put } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { HashingView, PasswordPolicy, PolicyOverrides } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { describedBy, FieldShell, issuesByPath } from '../components/fields';
import { useAsync } from '../lib/use-async';
import { usePageTitle } from '../lib/title';

/** The form's text for every setting; an empty string means "inherit the server's value". */
interface FormValues {
  algorithm: string;
  memory: string;
  time: string;
  threads: string;
  keyLength: string;
  saltLength: string;
  cost: string;
  rehashOnLogin: '' | 'true' | 'false';
}

const ARGON2_FIELDS = [
  { key: 'memory', label: 'Memory (KiB)', hint: 'At least 8192 KiB.' },
  { key: 'time', label: 'Iterations' },
  { key: 'threads', label: 'Parallelism (threads)' },
  { key: 'keyLength', label: 'Key length (bytes)' },
  { key: 'saltLength', label: 'Salt length (bytes)' },
] as const;

const text = (value: number | string | boolean | null | undefined): string => (value == null ? '' : String(value));

function fromOverrides(o: PolicyOverrides): FormValues {
  return {
    algorithm: text(o.algorithm),
    memory: text(o.argon2?.memory),
    time: text(o.argon2?.time),
    threads: text(o.argon2?.threads),
    keyLength: text(o.argon2?.keyLength),
    saltLength: text(o.argon2?.saltLength),
    cost: text(o.bcrypt?.cost),
    rehashOnLogin: o.rehashOnLogin == null ? '' : o.rehashOnLogin ? 'true' : 'false',
  };
}

/**
 * Blank fields are left out (inherited). Whole numbers are sent as numbers; anything else is
 * sent as typed, so the server's validation, the one source of truth, names the problem.
 */
function toOverrides(v: FormValues): Record<string, unknown> {
  const value = (s: string) => (s.trim() === '' ? undefined : /^-?\d+$/.test(s.trim()) ? Number(s.trim()) : s.trim());
  const argon2 = Object.fromEntries(ARGON2_FIELDS.map(({ key }) => [key, value(v[key])]).filter(([, x]) => x !== undefined));
  const out: Record<string, unknown> = {};
  if (v.algorithm) out.algorithm = v.algorithm;
  if (Object.keys(argon2).length) out.argon2 = argon2;
  if (value(v.cost) !== undefined) out.bcrypt = { cost: value(v.cost) };
  if (v.rehashOnLogin) out.rehashOnLogin = v.rehashOnLogin === 'true';
  return out;
}

function presetLabel(name: string, preset: PolicyOverrides): string {
  const title = name.charAt(0).toUpperCase() + name.slice(1);
  if (preset.algorithm === 'bcrypt') return `${title}: bcrypt, cost ${preset.bcrypt?.cost ?? ''}`;
  const memory = preset.argon2?.memory;
  return memory ? `${title}: about ${Math.round(memory / 1024)} MiB per sign-in` : title;
}

/** The super admin's password hashing settings: stored overrides on top of file and environment. */
export function ServerHashingPage() {
  usePageTitle('Password hashing');
  const state = useAsync(() => get<HashingView>('/system/hashing'), []);
  if (state.error) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>Password hashing</h1>
        <ErrorBanner error={state.error} />
      </main>
    );
  }
  if (!state.data) {
    return (
      <main id="main" aria-busy="true">
        <h1 tabIndex={-1}>Password hashing</h1>
        <p>Loading…</p>
      </main>
    );
  }
  return <HashingEditor stored={state.data} />;
}

/** The settings form, starting from the stored overrides: its first paint already shows them. */
function HashingEditor({ stored }: { stored: HashingView }) {
  const [view, setView] = useState(stored);
  const [values, setValues] = useState<FormValues>(() => fromOverrides(stored.overrides));
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const issues = issuesByPath(error?.issues ?? []);
  const set = (patch: Partial<FormValues>) => {
    setValues({ ...values, ...patch });
    setSaved(false);
  };

  const applyPreset = (preset: PolicyOverrides) => {
    const patch: Partial<FormValues> = { algorithm: text(preset.algorithm) };
    for (const { key } of ARGON2_FIELDS) if (preset.argon2?.[key] != null) patch[key] = text(preset.argon2[key]);
    if (preset.bcrypt?.cost != null) patch.cost = text(preset.bcrypt.cost);
    set(patch);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const next = await put<HashingView>('/system/hashing', toOverrides(values));
      setView(next);
      setValues(fromOverrides(next.overrides));
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const placeholder = (value: unknown) => `inherits ${String(value)}`;
  const general = [...issues.entries()].filter(([path]) => !KNOWN_PATHS.has(path));

  return (
    <main id="main" class="page-hashing">
      <h1 tabIndex={-1}>Password hashing</h1>
      <p class="lead">
        How new password hashes are made. Existing passwords keep working whatever you choose: stored hashes name their own algorithm and costs.
      </p>
      <Notice kind="info">
        Changes take effect after the server restarts.
        {view.pendingRestart ? <strong class="pending-restart"> A restart is pending: the stored settings differ from those in force.</strong> : null}
      </Notice>
      {saved ? <Notice>Saved. The new settings apply after the next restart.</Notice> : null}
      <ErrorBanner error={error} title="Not saved" />
      {general.length ? (
        <ul class="issue-list">
          {general.map(([path, messages]) => (
            <li key={path}>{path ? `${path}: ${messages.join('; ')}` : messages.join('; ')}</li>
          ))}
        </ul>
      ) : null}

      <section aria-labelledby="presets-title">
        <h2 id="presets-title">Recommended profiles</h2>
        <p class="hint">A profile fills in the algorithm and its costs below; review, then save.</p>
        <div class="button-row">
          {Object.entries(view.presets).map(([name, preset]) => (
            <button type="button" key={name} data-preset={name} onClick={() => applyPreset(preset)}>
              {presetLabel(name, preset)}
            </button>
          ))}
        </div>
      </section>

      <form onSubmit={submit} class="card" noValidate aria-label="Hashing settings">
        <p class="hint">
          A blank field inherits the server's value (configuration file, environment or default), shown greyed. Only values stored here are filled in.
        </p>
        <FieldShell id="algorithm" label="Algorithm" errors={issues.get('algorithm')}>
          <select
            id="algorithm"
            value={values.algorithm}
            onChange={(e) => set({ algorithm: (e.currentTarget as HTMLSelectElement).value })}
            aria-describedby={describedBy('algorithm', undefined, issues.get('algorithm'))}
          >
            <option value="">Inherit ({view.effective.algorithm})</option>
            <option value="argon2id">argon2id</option>
            <option value="bcrypt">bcrypt</option>
          </select>
        </FieldShell>
        <fieldset>
          <legend>argon2id costs</legend>
          <div class="grid">
            {ARGON2_FIELDS.map((field) => (
              <NumberField
                key={field.key}
                id={`argon2-${field.key}`}
                label={field.label}
                hint={'hint' in field ? field.hint : undefined}
                value={values[field.key]}
                placeholder={placeholder(view.effective.argon2[field.key])}
                errors={issues.get(`argon2.${field.key}`)}
                onValue={(v) => set({ [field.key]: v })}
              />
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>bcrypt cost</legend>
          <NumberField
            id="bcrypt-cost"
            label="Cost (10 to 31)"
            value={values.cost}
            placeholder={placeholder(view.effective.bcrypt.cost)}
            errors={issues.get('bcrypt.cost')}
            onValue={(v) => set({ cost: v })}
            hint="Used only when the algorithm is bcrypt."
          />
        </fieldset>
        <fieldset aria-describedby={issues.get('rehashOnLogin') ? 'rehash-error' : undefined}>
          <legend>Re-hash on sign-in</legend>
          <p class="hint">When on, a password whose stored hash does not match these settings is re-hashed at its next successful sign-in.</p>
          {(
            [
              ['', `Inherit (${view.effective.rehashOnLogin ? 'on' : 'off'})`],
              ['true', 'On'],
              ['false', 'Off: only new and changed passwords use the new settings'],
            ] as const
          ).map(([value, label]) => (
            <div class="field-checkbox" key={value || 'inherit'}>
              <input
                type="radio"
                name="rehashOnLogin"
                id={`rehash-${value || 'inherit'}`}
                value={value}
                checked={values.rehashOnLogin === value}
                onChange={() => set({ rehashOnLogin: value })}
              />
              <label for={`rehash-${value || 'inherit'}`}>{label}</label>
            </div>
          ))}
          {issues.get('rehashOnLogin') ? (
            <p class="field-error" id="rehash-error">
              {issues.get('rehashOnLogin')!.join('; ')}
            </p>
          ) : null}
        </fieldset>
        <div class="button-row">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
          <button type="button" onClick={() => set(fromOverrides({}))}>
            Clear all (inherit everything)
          </button>
        </div>
      </form>

      <section aria-labelledby="effective-title">
        <h2 id="effective-title">In force now</h2>
        <EffectiveTable policy={view.effective} />
      </section>
    </main>
  );
}

const KNOWN_PATHS = new Set(['algorithm', 'bcrypt.cost', 'rehashOnLogin', ...ARGON2_FIELDS.map((f) => `argon2.${f.key}`)]);

function NumberField(props: { id: string; label: string; value: string; placeholder: string; errors?: string[]; hint?: string; onValue(v: string): void }) {
  const { id, label, value, placeholder, errors, hint, onValue } = props;
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      <input
        id={id}
        name={id}
        inputMode="numeric"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
        aria-describedby={describedBy(id, hint, errors)}
        aria-invalid={errors?.length ? true : undefined}
      />
    </FieldShell>
  );
}

function EffectiveTable({ policy }: { policy: PasswordPolicy }) {
  const rows: [string, string][] = [
    ['Algorithm', policy.algorithm],
    ['argon2id memory', `${policy.argon2.memory} KiB`],
    ['argon2id iterations', String(policy.argon2.time)],
    ['argon2id parallelism', String(policy.argon2.threads)],
    ['argon2id key length', `${policy.argon2.keyLength} bytes`],
    ['argon2id salt length', `${policy.argon2.saltLength} bytes`],
    ['bcrypt cost', String(policy.bcrypt.cost)],
    ['Re-hash on sign-in', policy.rehashOnLogin ? 'on' : 'off'],
  ];
  return (
    <table class="kv">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
