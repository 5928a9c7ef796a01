import type { Context } from 'koa';
import type { UserProfile } from '../../db/schema.js';
import { can } from '../../access/permissions.js';
import type { AppDeps } from '../../deps.js';
import { issueHandoffCode } from '../handoff.js';
import { findUser } from '../../accounts/users.js';
import { TEAM_CHAT_INSTALL_DEFAULTS } from './catalog.js';
import { authorizationUrl, completePage, failurePage, providerOf, redirectUri, takeState } from './flow.js';
import { SignInError } from './provider-error.js';
import { exchangeCode } from './token-exchange.js';
import { joinLinkedWorkspaces } from './workspace-join.js';
import { activeWorkspaceLinks, createWorkspaceOrganization, linkWorkspace } from './workspace-links.js';

/** Bot scopes asked for at install: the app also posts notifications. */
const INSTALL_SCOPES = ['chat:write', 'channels:read', 'users:read'];

const installEndpoints = (deps: Pick<AppDeps, 'config'>) => {
  const overrides = deps.config.auth.providerEndpoints.team_chat ?? {};
  return {
    authorizeUrl: overrides.install_authorize_url ?? TEAM_CHAT_INSTALL_DEFAULTS.authorizeUrl,
    tokenUrl: overrides.install_token_url ?? TEAM_CHAT_INSTALL_DEFAULTS.tokenUrl,
  };
};

/**
 * Starts an app install by a signed-in account: into an existing organization it administers
 * (`organizationUid`), or without one, creating the organization from the workspace.
 */
export async function installUrl(deps: AppDeps, ctx: Context, user: UserProfile, input: { organizationUid?: string; returnTo: string }): Promise<string> {
  const provider = await providerOf(deps, 'team_chat');
  return authorizationUrl(
    deps,
    ctx,
    { ...provider, pkce: false },
    {
      purpose: 'install',
      returnTo: input.returnTo,
      authorizeUrl: installEndpoints(deps).authorizeUrl,
      scopes: INSTALL_SCOPES,
      userUid: user.uid,
      organizationUid: input.organizationUid,
    },
  );
}

/**
 * The platform's redirect after an install. The workspace comes from the token answer (`team.id`),
 * never from the request. An organization named at the start gets linked; otherwise the
 * workspace's linked organizations admit the installer as at sign-in, and with none linked a new
 * organization is created and linked, the installer its first member and admin.
 */
export async function completeInstall(deps: AppDeps, ctx: Context, query: URLSearchParams): Promise<string> {
  try {
    const provider = await providerOf(deps, 'team_chat');
    const pending = await takeState(deps, ctx, provider, query, 'install');
    const user = pending.userUid ? await findUser(deps, pending.userUid) : undefined;
    if (!user) throw new SignInError('install_failed', 'the account that started the install no longer exists');
    const tokens = await exchangeCode(deps, provider, installEndpoints(deps).tokenUrl, {
      code: query.get('code')!,
      redirectUri: redirectUri(deps, provider, 'install'),
    });
    const team = tokens.raw.team as { id?: unknown; name?: unknown } | undefined;
    const workspaceId = typeof team?.id === 'string' && team.id ? team.id : undefined;
    if (!workspaceId) throw new SignInError('install_failed', 'the install answer names no workspace');
    const workspaceName = typeof team?.name === 'string' ? team.name : null;
    if (pending.organizationUid) {
      // The role may have changed since the install started: it must still allow linking now.
      if (!(await mayLinkWorkspace(deps, pending.organizationUid, user.uid))) {
        throw new SignInError('install_failed', 'the account that started the install may no longer change the settings of the organization');
      }
      await linkWorkspace(deps, { organizationUid: pending.organizationUid, workspaceId, workspaceName, actorUid: user.uid });
    } else if ((await activeWorkspaceLinks(deps, workspaceId)).length === 0) {
      await createWorkspaceOrganization(deps, { workspaceId, workspaceName, actorUid: user.uid });
    }
    await joinLinkedWorkspaces(deps, user, workspaceId);
    deps.logger.info({ user: user.uid, workspaceId }, 'team-chat app installed');
    const code = await issueHandoffCode(deps, user, 'oauth:team_chat_install', pending.returnTo);
    return completePage(deps, { code });
  } catch (error) {
    return failurePage(
      deps,
      'team_chat',
      error instanceof SignInError && error.reason !== 'invalid_state' && error.reason !== 'access_denied'
        ? new SignInError('install_failed', error.message)
        : error,
    );
  }
}

/** Whether the user's current role in the organization allows linking a workspace to it. */
async function mayLinkWorkspace(deps: Pick<AppDeps, 'db'>, organizationUid: string, userUid: string): Promise<boolean> {
  const member = await deps.db.kysely
    .selectFrom('members')
    .select('role')
    .where('organization_uid', '=', organizationUid)
    .where('user_uid', '=', userUid)
    .executeTakeFirst();
  return member !== undefined && can(member.role, 'organization:settings');
}
