import { useState } from 'preact/hooks';
import { get, put } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { EnterpriseTenant as TenantView, Provider } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';

/** Server settings, Authentication: the enabled providers and the enterprise directory's tenant. */
export function ServerAuthenticationPage() {
  usePageTitle('Authentication');
  const providers = useAsync(() => get<Provider[]>('/auth/providers'), []);
  const tenant = useAsync(() => get<TenantView>('/system/sign-in/enterprise-tenant'), []);
  return (
    <main id="main">
      <h1 tabIndex={-1}>Authentication</h1>
      <section aria-labelledby="providers-title">
        <h2 id="providers-title">Sign-in providers</h2>
        <p class="hint">A provider is enabled by setting its client ID and secret in the server's configuration.</p>
        <ErrorBanner error={providers.error} />
        {providers.data ? (
          providers.data.length ? (
            <ul>
              {providers.data.map((p) => (
                <li key={p.key}>
                  {p.displayName} <span class="hint">({p.kind})</span>
                </li>
              ))}
            </ul>
          ) : (
            <p>Only e-mail and password: no provider is configured.</p>
          )
        ) : null}
      </section>
      <section aria-labelledby="tenant-title">
        <h2 id="tenant-title">Enterprise directory tenant</h2>
        <ErrorBanner error={tenant.error} />
        {tenant.data ? <TenantForm stored={tenant.data} onSaved={tenant.setData} /> : null}
      </section>
    </main>
  );
}

/** The tenant override form, starting from the stored value: its first paint already shows it. */
function TenantForm({ stored, onSaved }: { stored: TenantView; onSaved(view: TenantView): void }) {
  const [value, setValue] = useState(stored.override ?? '');
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      onSaved(await put<TenantView>('/system/sign-in/enterprise-tenant', { tenantId: value.trim() === '' ? null : value.trim() }));
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <form class="card" onSubmit={save} noValidate>
      <Notice kind="info">
        Takes effect after the server restarts. In force now: <code>{stored.effective}</code>.
        {stored.pendingRestart ? <strong> A restart is pending.</strong> : null}
      </Notice>
      {saved ? <Notice>Saved.</Notice> : null}
      <ErrorBanner error={error} title="Not saved" />
      <TextField
        id="tenant-id"
        label="Tenant"
        value={value}
        placeholder={`inherits ${stored.configured}`}
        onValue={setValue}
        hint="A directory GUID, a verified domain, common, organizations or consumers. Blank inherits the configuration. A single-tenant registration rejects common."
        errors={issuesByPath(error?.issues ?? []).get('tenantId')}
      />
      <button type="submit" class="primary">
        Save
      </button>
    </form>
  );
}
