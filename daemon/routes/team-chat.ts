import { z } from 'zod';
import { requireSession } from '../access/session-only.js';
import { completeInstall, installUrl } from '../auth/oauth/team-chat-install.js';
import { unlinkWorkspace, workspaceLinkOf } from '../auth/oauth/workspace-links.js';
import { notFound } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';

const installBody = z.object({ returnTo: z.string().max(2000).optional() });

/** The team-chat app install and an organization's workspace link. */
export const teamChatRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/team_chat/install',
    permission: 'authenticated',
    response: 'RedirectUrl',
    summary: 'Start installing the team-chat app: {url} to open; creates an organization linked to the workspace unless one is linked already.',
    body: installBody,
    async handler({ ctx, deps, auth, body }) {
      requireSession(auth, 'Installing the team-chat app');
      return { url: await installUrl(deps, ctx, auth.user, { returnTo: body.returnTo ?? '/' }) };
    },
  }),
  route({
    method: 'GET',
    path: '/auth/team_chat/install/callback',
    permission: 'public',
    writes: { redirect: true },
    summary: "The platform's redirect after an install: 302 to {base_url}/d/auth/complete?code=<one_time_code>.",
    async handler({ ctx, deps, query }) {
      ctx.redirect(await completeInstall(deps, ctx, query));
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/team-chat-workspace/install',
    permission: 'organization:settings',
    response: 'RedirectUrl',
    summary: 'Start installing the team-chat app into this organization, linking it to the workspace: {url} to open.',
    body: installBody,
    async handler({ ctx, deps, auth, body }) {
      requireSession(auth, 'Installing the team-chat app');
      return { url: await installUrl(deps, ctx, auth.user, { organizationUid: auth.org.uid, returnTo: body.returnTo ?? '/' }) };
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/team-chat-workspace',
    permission: 'organization:read',
    response: 'WorkspaceLink',
    summary: "The organization's team-chat workspace link: {linked: true, workspaceId, workspaceName, linkedAt}, or {linked: false}.",
    async handler({ deps, auth }) {
      // Not being linked is a state, not a missing resource.
      const link = await workspaceLinkOf(deps, auth.org.uid);
      return link ? { linked: true, ...link } : { linked: false };
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/team-chat-workspace',
    permission: 'organization:settings',
    summary: 'Remove the workspace link: workspace members no longer join by it (existing members stay).',
    async handler({ deps, auth }) {
      if (!(await unlinkWorkspace(deps, { organizationUid: auth.org.uid, actorUid: auth.user.uid }))) {
        throw notFound('This organization is not linked to a team-chat workspace.');
      }
    },
  }),
];
