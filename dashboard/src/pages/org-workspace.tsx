import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Provider, RedirectUrl, WorkspaceLink } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { formatDate } from '../lib/format';
import { useAsync } from '../lib/use-async';

/**
 * The team-chat workspace this organization is linked to: its members join as `user` when they
 * sign in with it. Admins link one by installing the chat app, or remove the link.
 */
export function WorkspaceSection({ org, admin }: { org: string; admin: boolean }) {
  const path = `/orgs/${encodeURIComponent(org)}/team-chat-workspace`;
  const link = useAsync(() => get<WorkspaceLink>(path).then((answer) => (answer.linked ? answer : null)), [org]);
  const providers = useAsync(() => get<Provider[]>('/auth/providers'), []);
  const [error, setError] = useState<ApiError>();
  const chatEnabled = providers.data?.some((p) => p.key === 'team_chat') ?? false;

  const install = async () => {
    setError(undefined);
    try {
      const { url } = await post<RedirectUrl>(`${path}/install`, { returnTo: window.location.pathname });
      window.location.assign(url);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const unlink = async () => {
    if (!window.confirm('Remove the workspace link? Its members no longer join by it; existing members stay.')) return;
    setError(undefined);
    try {
      await del(path);
      link.reload();
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <section aria-labelledby="workspace-title">
      <h2 id="workspace-title">Team-chat workspace</h2>
      <ErrorBanner error={link.error ?? error} />
      {link.data ? (
        <>
          <p>
            Linked to <strong>{link.data.workspaceName ?? link.data.workspaceId}</strong> (<code>{link.data.workspaceId}</code>) since{' '}
            {formatDate(link.data.linkedAt)}. Its members join as user when they sign in with it.
          </p>
          {admin ? (
            <button type="button" class="danger" onClick={() => void unlink()}>
              Remove the link
            </button>
          ) : null}
        </>
      ) : link.data === null ? (
        <>
          <p>Not linked to a workspace.</p>
          {admin && chatEnabled ? (
            <button type="button" onClick={() => void install()}>
              Link a workspace (install the chat app)
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
