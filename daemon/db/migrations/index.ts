import type { Migration } from 'kysely';
import * as foundation from './001-foundation.js';
import * as personalTokens from './002-personal-tokens.js';
import * as accessControl from './003-access-control.js';
import * as monitoring from './004-monitoring.js';
import * as externalSignIn from './005-external-sign-in.js';
import * as passwordReset from './006-password-reset.js';
import * as organizationHardening from './008-organization-hardening.js';
import * as runner from './009-runner.js';
import * as secrets from './010-secrets.js';
import * as notificationOutbox from './013-notification-outbox.js';
import * as enterpriseSignIn from './014-enterprise-sign-in.js';
import * as stateChangesByOrganization from './015-state-changes-by-organization.js';
import * as incidentResolution from './016-incident-resolution.js';
import * as importBaseline from './017-import-baseline.js';
import * as maintenanceWindows from './018-maintenance-windows.js';
import * as statusPageUpdates from './019-status-page-updates.js';
import * as heartbeatSchedules from './020-heartbeat-schedules.js';
import * as resultPartitions from './021-result-partitions.js';
import * as incidentUpdatedIndex from './022-incident-updated-index.js';
import * as maintenanceMail from './023-maintenance-mail.js';
import * as checkReferencesPerStatement from './024-check-references-per-statement.js';

/** Every migration, in order. One set serves SQLite and PostgreSQL. */
export const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-personal-tokens': personalTokens,
  '003-access-control': accessControl,
  '004-monitoring': monitoring,
  '005-external-sign-in': externalSignIn,
  '006-password-reset': passwordReset,
  '008-organization-hardening': organizationHardening,
  '009-runner': runner,
  '010-secrets': secrets,
  '013-notification-outbox': notificationOutbox,
  '014-enterprise-sign-in': enterpriseSignIn,
  '015-state-changes-by-organization': stateChangesByOrganization,
  '016-incident-resolution': incidentResolution,
  '017-import-baseline': importBaseline,
  '018-maintenance-windows': maintenanceWindows,
  '019-status-page-updates': statusPageUpdates,
  '020-heartbeat-schedules': heartbeatSchedules,
  '021-result-partitions': resultPartitions,
  '022-incident-updated-index': incidentUpdatedIndex,
  '023-maintenance-mail': maintenanceMail,
  '024-check-references-per-statement': checkReferencesPerStatement,
};
