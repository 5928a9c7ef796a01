import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Account, Organization } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { issuesByPath, TextField } from '../components/fields';
import { Link } from '../components/link';
import { navigate } from '../lib/router';
import { refreshAccount } from '../lib/session';

/** The account's organizations, and a new one (its creator becomes owner). */
export function OrganizationsSection({ account }: { account: Account }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [error, setError] = useState<ApiError>();
  const issues = issuesByPath(error?.issues ?? []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const org = await post<Organization>('/orgs', { slug, name });
      await refreshAccount();
      navigate(`/orgs/${encodeURIComponent(org.slug)}/checks`);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  return (
    <section aria-labelledby="orgs-title">
      <h2 id="orgs-title">Organizations</h2>
      {account.organizations.length ? (
        <ul>
          {account.organizations.map((o) => (
            <li key={o.slug}>
              <Link href={`/orgs/${encodeURIComponent(o.slug)}/checks`}>{o.name || o.slug}</Link> ({o.role})
            </li>
          ))}
        </ul>
      ) : (
        <p>You are not a member of any organization yet.</p>
      )}
      <form class="card" onSubmit={submit} aria-label="New organization">
        <h3>New organization</h3>
        <ErrorBanner error={error} title={error?.reason === 'SLUG_TAKEN' ? 'Slug taken' : 'Not created'} />
        <TextField id="org-new-name" label="Organization name" required value={name} onValue={setName} errors={issues.get('name')} />
        <TextField
          id="org-new-slug"
          label="Slug"
          required
          value={slug}
          onValue={setSlug}
          hint="Lower-case letters, digits and dashes; used in addresses."
          errors={issues.get('slug')}
        />
        <button type="submit">Create organization</button>
      </form>
      <AskToJoinForm />
    </section>
  );
}

/** Asks an organization's admins to let the account in; the answer is the same whether or not it exists. */
function AskToJoinForm() {
  const [slug, setSlug] = useState('');
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSent(undefined);
    try {
      await post('/membership-requests', { org: slug.trim(), ...(message.trim() ? { message: message.trim() } : {}) });
      setSent(slug.trim());
      setSlug('');
      setMessage('');
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  const issues = issuesByPath(error?.issues ?? []);
  return (
    <form class="card" onSubmit={submit} aria-label="Ask to join an organization">
      <h3>Ask to join an organization</h3>
      {sent ? <Notice>If {sent} exists, its admins now see your request.</Notice> : null}
      <ErrorBanner error={error} title="Not sent" />
      <TextField id="join-slug" label="Organization slug" required value={slug} onValue={setSlug} errors={issues.get('org')} />
      <TextField id="join-message" label="Message to the admins (optional)" value={message} onValue={setMessage} errors={issues.get('message')} />
      <button type="submit">Ask to join</button>
    </form>
  );
}
