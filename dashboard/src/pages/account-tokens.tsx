import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Account, MintedToken, Page, Scope, TokenView } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { CheckboxField, FieldShell, issuesByPath, TextField } from '../components/fields';
import { formatDate } from '../lib/format';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

const SCOPES: { scope: Scope; label: string }[] = [
  { scope: 'api', label: 'api: the REST API, everything your role allows' },
  { scope: 'api:read', label: 'api:read: the REST API, reading only' },
  { scope: 'mcp', label: 'mcp: the MCP endpoint, every tool your role allows' },
  { scope: 'mcp:read', label: 'mcp:read: the MCP endpoint, read tools only' },
];

/** Personal access tokens: minted for one organization, shown once, revocable. */
export function TokensSection({ account }: { account: Account }) {
  const list = useAsync(() => get<Page<TokenView>>('/auth/tokens'), []);
  const [minted, setMinted] = useState<MintedToken>();
  const [revokeError, setRevokeError] = useState<ApiError>();

  const revoke = async (token: TokenView) => {
    if (!window.confirm(`Revoke the token "${token.name}"? Anything using it stops working at once.`)) return;
    setRevokeError(undefined);
    try {
      await del(`/auth/tokens/${encodeURIComponent(token.uid)}`);
      list.reload();
    } catch (caught) {
      setRevokeError(asApiError(caught));
    }
  };

  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal access tokens</h2>
      <p>A token acts for you in one organization, with your role there at the time of each call.</p>
      {minted ? (
        <Notice>
          <p>
            Token <strong>{minted.name}</strong> created. Copy it now: it is not shown again.
          </p>
          <label for="minted-token">Token</label>
          <input id="minted-token" class="mono" readOnly value={minted.token} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        </Notice>
      ) : null}
      <ErrorBanner error={list.error ?? revokeError} />
      {list.data ? (
        list.data.items.length === 0 ? (
          <p>No tokens yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Organization</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((token) => (
                  <tr key={token.uid}>
                    <td>{token.name}</td>
                    <td>{token.org}</td>
                    <td>{token.scopes.join(', ')}</td>
                    <td>{token.expiresAt ? formatDate(token.expiresAt) : 'never'}</td>
                    <td>{formatDate(token.lastUsedAt)}</td>
                    <td>
                      <button type="button" class="danger" onClick={() => void revoke(token)} aria-label={`Revoke ${token.name}`}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {account.organizations.length > 0 ? (
        <CreateTokenForm
          account={account}
          onCreated={(token) => {
            setMinted(token);
            list.reload();
          }}
        />
      ) : (
        <p>Tokens belong to an organization; join one to create a token.</p>
      )}
    </section>
  );
}

function CreateTokenForm({ account, onCreated }: { account: Account; onCreated(token: MintedToken): void }) {
  const [name, setName] = useState('');
  const [org, setOrg] = useState(account.organizations[0]?.slug ?? '');
  const [scopes, setScopes] = useState<Scope[]>(['api', 'mcp']);
  const [expires, setExpires] = useState('');
  const { busy, error, run } = useAction();
  const issues = issuesByPath(error?.issues ?? []);

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const body = { name, org, scopes, ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}) };
      onCreated(await post<MintedToken>('/auth/tokens', body));
      setName('');
    });
  };

  return (
    <form class="card" onSubmit={submit} aria-label="Create a token">
      <h3>New token</h3>
      <ErrorBanner error={error} title="Not created" />
      <TextField
        id="token-name"
        label="Token name"
        required
        value={name}
        onValue={setName}
        errors={issues.get('name')}
        hint="What the token is for, e.g. “CI deploy”."
      />
      <FieldShell id="token-org" label="Organization" errors={issues.get('org')}>
        <select id="token-org" value={org} onChange={(e) => setOrg((e.currentTarget as HTMLSelectElement).value)}>
          {account.organizations.map((o) => (
            <option key={o.slug} value={o.slug}>
              {o.name || o.slug} ({o.role})
            </option>
          ))}
        </select>
      </FieldShell>
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map(({ scope, label }) => (
          <CheckboxField
            key={scope}
            id={`scope-${scope.replace(':', '-')}`}
            label={label}
            checked={scopes.includes(scope)}
            onChange={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
          />
        ))}
        {issues.get('scopes') ? <p class="field-error">{issues.get('scopes')!.join('; ')}</p> : null}
      </fieldset>
      <TextField
        id="token-expires"
        label="Expires on (optional)"
        type="date"
        value={expires}
        onValue={setExpires}
        errors={issues.get('expiresAt')}
        hint="Leave empty for a token that does not expire."
      />
      <button type="submit" disabled={busy}>
        Create token
      </button>
    </form>
  );
}
