import { useState } from 'preact/hooks';
import { post } from '../api/client';
import type { Account, InvitationAccepted } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { Link } from '../components/link';
import { takeTokenFromAddress } from '../lib/fragment-token';
import { refreshAccount, signInPath } from '../lib/session';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';

const STASH = 'svc.invitation';

/**
 * The token survives the detour through sign-in in this tab's storage, since the return address
 * keeps only a path (never a secret).
 */
function invitationToken(): string | undefined {
  const fromAddress = takeTokenFromAddress();
  try {
    if (fromAddress) sessionStorage.setItem(STASH, fromAddress);
    return fromAddress ?? sessionStorage.getItem(STASH) ?? undefined;
  } catch {
    return fromAddress;
  }
}

function forgetToken(): void {
  try {
    sessionStorage.removeItem(STASH);
  } catch {
    // nothing stored
  }
}

/** Where an invitation link lands: accept it as the signed-in account it was sent to. */
export function InvitationAcceptPage({ account }: { account?: Account }) {
  usePageTitle('Invitation');
  const [token] = useState(invitationToken);
  const [joined, setJoined] = useState<{ org: string; role: string }>();
  const { busy, error, run } = useAction();

  const accept = async () => {
    await run(async () => {
      const answer = await post<InvitationAccepted>(`/invitations/${encodeURIComponent(token!)}/accept`);
      forgetToken();
      await refreshAccount();
      setJoined(answer);
    });
  };

  let body;
  if (!token) body = <p>This page needs the link from the invitation mail.</p>;
  else if (joined)
    body = (
      <>
        <Notice>
          You joined <strong>{joined.org}</strong> as {joined.role}.
        </Notice>
        <Link class="button primary" href={`/orgs/${encodeURIComponent(joined.org)}/checks`}>
          Open {joined.org}
        </Link>
      </>
    );
  else if (!account)
    body = (
      <>
        <p>
          You have been invited to an organization. Sign in (or create an account) with the address the invitation was sent to, then come back here to accept.
        </p>
        <div class="button-row">
          <Link class="button primary" href={signInPath('/d/invitations/accept')}>
            Sign in
          </Link>
          <Link class="button" href="/d/register?returnTo=%2Fd%2Finvitations%2Faccept">
            Create an account
          </Link>
        </div>
      </>
    );
  else
    body = (
      <>
        <p>
          Accept the invitation as <strong>{account.email}</strong>?
        </p>
        <ErrorBanner error={error} title="Not accepted" />
        <button type="button" class="primary" onClick={() => void accept()} disabled={busy}>
          Accept invitation
        </button>
      </>
    );
  return (
    <main class="auth-page" id="main">
      <h1 tabIndex={-1}>Invitation</h1>
      {body}
    </main>
  );
}
