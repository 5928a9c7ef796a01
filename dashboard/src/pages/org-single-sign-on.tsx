import { useState } from 'preact/hooks';
import { del, get, put } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import { ErrorBanner, Notice } from '../components/error-banner';
import { CheckboxField, FieldShell, issuesByPath } from '../components/fields';
import { useAsync } from '../lib/use-async';
import { GROUP_ROLES } from '../../../contract/enterprise-sign-in';
import type { GroupRoles, SamlProvider } from '../api/types';

/** `group = role` lines ⇄ the API's mapping. */
const mappingText = (mapping: Record<string, string>) =>
  Object.entries(mapping)
    .map(([group, role]) => `${group} = ${role}`)
    .join('\n');
function parseMapping(text: string): { mapping: Record<string, string>; problems: string[] } {
  const mapping: Record<string, string> = {};
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const at = line.lastIndexOf('=');
    const group = line.slice(0, at).trim();
    const role = line
      .slice(at + 1)
      .trim()
      .toLowerCase();
    if (at < 0 || !group || !(GROUP_ROLES as readonly string[]).includes(role))
      problems.push(`line ${index + 1}: write "group = admin", "group = user" or "group = viewer"`);
    else mapping[group] = role;
  });
  return { mapping, problems };
}

/** 404 means "none configured": null. */
const orNull = <T,>(promise: Promise<T>) => promise.catch((caught) => (asApiError(caught).code === 'NOT_FOUND' ? null : Promise.reject(caught)));

/**
 * Single sign-on of the organization (admins): its SAML identity provider (metadata, "SAML
 * required") and the directory group → role mapping that SAML and LDAP sign-ins apply.
 */
export function SingleSignOnSection({ org }: { org: string }) {
  const base = `/orgs/${encodeURIComponent(org)}`;
  const provider = useAsync(() => orNull(get<SamlProvider>(`${base}/saml`)), [org]);
  const groupRoles = useAsync(() => get<GroupRoles>(`${base}/group-roles`), [org]);
  return (
    <section aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      <ErrorBanner error={provider.error ?? groupRoles.error} />
      {provider.data !== undefined ? <SamlForm base={base} stored={provider.data} onSaved={provider.setData} /> : null}
      {groupRoles.data ? <GroupRolesForm base={base} stored={groupRoles.data.groupRoles} /> : null}
    </section>
  );
}

function SamlForm({ base, stored, onSaved }: { base: string; stored: SamlProvider | null; onSaved(value: SamlProvider | null): void }) {
  const [metadata, setMetadata] = useState('');
  const [required, setRequired] = useState(stored?.required ?? false);
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const issues = issuesByPath(error?.issues ?? []);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    const source = metadata.trim();
    const body = /^https:\/\//i.test(source) ? { metadataUrl: source, required } : { metadataXml: source, required };
    try {
      onSaved(await put<SamlProvider>(`${base}/saml`, body));
      setMetadata('');
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const remove = async () => {
    if (!window.confirm('Remove the SAML identity provider? Its members then sign in the other ways again.')) return;
    setError(undefined);
    try {
      await del(`${base}/saml`);
      onSaved(null);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="saml-title">
      <h3 id="saml-title">SAML identity provider</h3>
      {saved ? <Notice>Identity provider saved.</Notice> : null}
      <ErrorBanner error={error} title="Not saved" />
      {stored ? (
        <table class="kv">
          <tbody>
            <tr>
              <th scope="row">Identity provider</th>
              <td>
                <code>{stored.idpEntityId}</code>
              </td>
            </tr>
            <tr>
              <th scope="row">Certificate SHA-256</th>
              <td>
                {stored.certificateFingerprints.map((f) => (
                  <code key={f}>{f} </code>
                ))}
              </td>
            </tr>
            <tr>
              <th scope="row">Sign-in address</th>
              <td>
                <code>{stored.serviceProvider.loginUrl}</code>
              </td>
            </tr>
            <tr>
              <th scope="row">SAML required</th>
              <td>{stored.required ? 'yes' : 'no'}</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p>No identity provider is connected. Enter this server’s metadata address at your identity provider, then paste its metadata here.</p>
      )}
      <FieldShell
        id="saml-metadata"
        label={stored ? 'Replace with new metadata (XML or https address)' : 'Identity provider metadata (XML or https address)'}
        hint={`This server's service provider metadata, for your identity provider: ${stored?.serviceProvider.metadataUrl ?? `${window.location.origin}/api/v1/auth/saml/${base.split('/')[2]}/metadata`}`}
        errors={[...(issues.get('metadataXml') ?? []), ...(issues.get('metadataUrl') ?? []), ...(issues.get('') ?? [])]}
      >
        <textarea id="saml-metadata" rows={6} value={metadata} onInput={(e) => setMetadata((e.target as HTMLTextAreaElement).value)} />
      </FieldShell>
      <CheckboxField
        id="saml-required"
        label="Require SAML: members may not sign in with a password or another provider (super admins still can)"
        checked={required}
        onChange={setRequired}
      />
      <button type="submit" class="primary" disabled={metadata.trim() === ''}>
        Save identity provider
      </button>{' '}
      {stored ? (
        <button type="button" class="danger" onClick={() => void remove()}>
          Remove
        </button>
      ) : null}
    </form>
  );
}

function GroupRolesForm({ base, stored }: { base: string; stored: Record<string, string> }) {
  const [text, setText] = useState(mappingText(stored));
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    const parsed = parseMapping(text);
    setProblems(parsed.problems);
    if (parsed.problems.length > 0) return;
    try {
      const answer = await put<GroupRoles>(`${base}/group-roles`, { groupRoles: parsed.mapping });
      setText(mappingText(answer.groupRoles));
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="group-roles-title">
      <h3 id="group-roles-title">Directory groups and roles</h3>
      {saved ? <Notice>Group mapping saved.</Notice> : null}
      <ErrorBanner error={error} title="Not saved" />
      <FieldShell
        id="group-roles"
        label="One group per line: group = admin, user or viewer"
        hint="SAML and LDAP sign-ins join members of these groups with the role (the highest when several match). Owners are never granted this way."
        errors={problems}
      >
        <textarea id="group-roles" rows={5} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
      </FieldShell>
      <button type="submit" class="primary">
        Save group mapping
      </button>
    </form>
  );
}
