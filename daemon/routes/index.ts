import { accountRoutes } from './account.js';
import { auditLogRoutes } from './audit-log.js';
import { invitationRoutes } from './invitations.js';
import { memberRoutes } from './members.js';
import { membershipRequestRoutes } from './membership-requests.js';
import { organizationRoutes } from './organizations.js';
import { systemUserRoutes } from './system-users.js';
import { tokenRoutes } from './tokens.js';
import { authRoutes } from './auth.js';
import { passwordResetRoutes } from './password-reset.js';
import { sessionRoutes } from './sessions.js';
import { handoffRoutes } from './handoff.js';
import { oauthRoutes } from './oauth.js';
import { teamChatRoutes } from './team-chat.js';
import { twoFactorRoutes } from './two-factor.js';
import { channelTypeRoutes } from './channel-types.js';
import { checkTypeRoutes } from './check-types.js';
import { checkImportRoutes } from './checks-import.js';
import { checkRoutes } from './checks.js';
import { healthRoutes } from './health.js';
import { openApiRoutes } from './openapi.js';
import { incidentRoutes } from './incidents.js';
import { notificationChannelRoutes } from './notification-channels.js';
import { checkChannelRoutes } from './check-channels.js';
import { channelDeliveryRoutes } from './channel-deliveries.js';
import { notificationSettingsRoutes } from './notification-settings.js';
import type { RouteSpec } from '../http/route.js';
import { statusPageRoutes } from './status-pages.js';
import { statusPageUpdateRoutes } from './status-page-updates.js';
import { statusPageSubscriberRoutes } from './status-page-subscribers.js';
import { systemHashingRoutes } from './system-hashing.js';
import { systemAuditLogRoutes } from './system-audit-log.js';
import { systemOrganizationRoutes } from './system-organizations.js';
import { secretRoutes } from './secrets.js';
import { checkRunRoutes } from './check-runs.js';
import { checkStateRoutes } from './check-states.js';
import { pingRoutes } from './pings.js';
import { groupRoleRoutes } from './group-roles.js';
import { samlRoutes } from './saml.js';
import { publicStatusRoutes } from './public-status.js';
import { orgMetricsRoutes } from './org-metrics.js';
import { eventRoutes } from './events.js';
import { maintenanceWindowRoutes } from './maintenance-windows.js';

/** The whole route table of the API, under /api/v1. */
export const ROUTES: RouteSpec[] = [
  ...healthRoutes,
  ...authRoutes,
  ...passwordResetRoutes,
  ...sessionRoutes,
  ...twoFactorRoutes,
  ...handoffRoutes,
  ...teamChatRoutes,
  ...oauthRoutes,
  ...systemHashingRoutes,
  ...accountRoutes,
  ...tokenRoutes,
  ...organizationRoutes,
  ...memberRoutes,
  ...invitationRoutes,
  ...membershipRequestRoutes,
  ...auditLogRoutes,
  ...systemUserRoutes,
  ...checkTypeRoutes,
  ...channelTypeRoutes,
  ...checkImportRoutes,
  ...checkRoutes,
  ...incidentRoutes,
  ...statusPageRoutes,
  ...statusPageUpdateRoutes,
  ...statusPageSubscriberRoutes,
  ...maintenanceWindowRoutes,
  ...notificationChannelRoutes,
  ...notificationSettingsRoutes,
  ...systemAuditLogRoutes,
  ...systemOrganizationRoutes,
  ...secretRoutes,
  ...checkRunRoutes,
  ...checkStateRoutes,
  ...pingRoutes,
  ...groupRoleRoutes,
  ...samlRoutes,
  ...publicStatusRoutes,
  ...checkChannelRoutes,
  ...channelDeliveryRoutes,
  ...orgMetricsRoutes,
  ...eventRoutes,
  ...openApiRoutes(() => ROUTES),
];
