import type { AuthContext } from '../access/auth-context.js';
import { authorize } from '../access/authorize.js';
import type { OrgPermission } from '../access/permissions.js';
import type { AppDeps } from '../deps.js';
import { validationFailed } from '../errors.js';
import { notificationSettingsSchema, readNotificationSettings, writeNotificationSettings } from '../notifications/notification-settings.js';
import { route, type RouteSpec } from '../http/route.js';

/**
 * The organization of `?org=`: required for a session, optional for a personal access token
 * (bound to one organization). The caller's current role is read and checked here, because the
 * path has no `:org` for the mounting function to do it.
 */
async function memberOrg(deps: AppDeps, auth: AuthContext, query: URLSearchParams, permission: OrgPermission, writes: boolean) {
  // A token's organization was read with the token itself (authenticateRequest).
  const slug = query.get('org') || (auth.token ? auth.membershipRead?.membership?.org.slug : undefined);
  if (!slug) throw validationFailed([{ path: 'org', message: 'required: the slug of the organization these settings are for' }], 'The query is not valid.');
  const { org } = await authorize(deps, auth, { surface: 'rest', writes, org: { slug, permission } });
  return org;
}

/** The caller's own notification settings in one organization; every member, a viewer too, may change them. */
export const notificationSettingsRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/auth/me/notification-settings',
    permission: 'authenticated',
    response: 'NotificationSettings',
    summary: 'Your notification settings in ?org= (the defaults until you save some).',
    async handler({ deps, auth, query }) {
      const org = await memberOrg(deps, auth, query, 'organization:read', false);
      const { settings, updatedAt } = await readNotificationSettings(deps.db.kysely, org.uid, auth.user.uid);
      return { org: org.slug, ...settings, updatedAt };
    },
  }),
  route({
    method: 'PUT',
    path: '/auth/me/notification-settings',
    permission: 'authenticated',
    response: 'NotificationSettings',
    summary: 'Replace your notification settings in ?org= {email?, events?, quietHours?}; left-out fields take their defaults.',
    body: notificationSettingsSchema,
    async handler({ deps, auth, query, body }) {
      const org = await memberOrg(deps, auth, query, 'own-notification-settings:write', true);
      const now = deps.clock.now();
      await writeNotificationSettings(deps.db.kysely, org.uid, auth.user.uid, body, now);
      return { org: org.slug, ...body, updatedAt: now.toISOString() };
    },
  }),
];
