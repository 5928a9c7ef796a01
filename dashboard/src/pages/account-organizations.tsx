import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Account, Organization } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
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
        <TextField id="org-new-slug" label="Slug" required value={slug} onValue={setSlug} hint="Lower-case letters, digits and dashes; used in addresses." errors={issues.get('slug')} />
        <button type="submit">Create organization</button>
      </form>
    </section>
  );
}
