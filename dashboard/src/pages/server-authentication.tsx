import { useEffect, useState } from 'preact/hooks';
import { get, put } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Provider } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';

interface TenantView {
  effective: string;
  configured: string;
  override: string | null;
  pendingRestart: boolean;
}

/** Server settings, Authentication: the enabled providers and the enterprise directory's tenant. */
export function ServerAuthenticationPage() {
  usePageTitle('Authentication');
  const providers = useAsync(() => get<Provider[]>('/auth/providers'), []);
  const tenant = useAsync(() => get<TenantView>('/system/sign-in/enterprise-tenant'), []);
  const [value, setValue] = useState('');
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (tenant.data) setValue(tenant.data.override ?? '');
  }, [tenant.data]);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      tenant.setData(await put<TenantView>('/system/sign-in/enterprise-tenant', { tenantId: value.trim() === '' ? null : value.trim() }));
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <main id="main">
      <h1 tabIndex={-1}>Authentication</h1>
      <section aria-labelledby="providers-title">
        <h2 id="providers-title">Sign-in providers</h2>
        <p class="hint">A provider is enabled by setting its client ID and secret in the server's configuration.</p>
        <ErrorBanner error={providers.error} />
        {providers.data ? providers.data.length ? (
          <ul>
            {providers.data.map((p) => (
              <li key={p.key}>
                {p.displayName} <span class="hint">({p.kind})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>Only e-mail and password: no provider is configured.</p>
        ) : null}
      </section>
      <section aria-labelledby="tenant-title">
        <h2 id="tenant-title">Enterprise directory tenant</h2>
        <ErrorBanner error={tenant.error} />
        {tenant.data ? (
          <form class="card" onSubmit={save} noValidate>
            <Notice kind="info">
              Takes effect after the server restarts. In force now: <code>{tenant.data.effective}</code>.
              {tenant.data.pendingRestart ? <strong> A restart is pending.</strong> : null}
            </Notice>
            {saved ? <Notice>Saved.</Notice> : null}
            <ErrorBanner error={error} title="Not saved" />
            <TextField
              id="tenant-id"
              label="Tenant"
              value={value}
              placeholder={`inherits ${tenant.data.configured}`}
              onValue={setValue}
              hint="A directory GUID, a verified domain, common, organizations or consumers. Blank inherits the configuration. A single-tenant registration rejects common."
              errors={issuesByPath(error?.issues ?? []).get('tenantId')}
            />
            <button type="submit" class="primary">
              Save
            </button>
          </form>
        ) : null}
      </section>
    </main>
  );
}
