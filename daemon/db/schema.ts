import type { ColumnType, Selectable } from 'kysely';
import type { Role } from '../../contract/access.js';
import type { IncidentResolution } from '../../contract/responses.js';
import type { StatusPageUpdateState } from '../../contract/status-pages.js';

/**
 * The database tables. The same schema runs on SQLite and PostgreSQL, so it keeps to types both
 * share: timestamps are ISO-8601 UTC text (they sort and compare as text), booleans are 0/1
 * integers, JSON is text.
 */
export interface Database {
  /** TOTP columns come with migration 005; User (the foundation's row type) leaves them out. */
  users: UsersTable & UsersTotpColumns;
  organizations: OrganizationsTable;
  members: MembersTable;
  sessions: SessionsTable;
  parameters: ParametersTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  personal_tokens: PersonalTokensTable;
  oauth_states: OAuthStatesTable;
  handoff_codes: HandoffCodesTable;
  linked_identities: LinkedIdentitiesTable;
  recovery_codes: RecoveryCodesTable;
  totp_used_steps: TotpUsedStepsTable;
  workspace_links: WorkspaceLinksTable;
  password_resets: PasswordResetsTable;
  invitations: InvitationsTable;
  membership_requests: MembershipRequestsTable;
  email_verifications: EmailVerificationsTable;
  checks: ChecksTable;
  check_labels: CheckLabelsTable;
  check_import_baselines: CheckImportBaselinesTable;
  maintenance_windows: MaintenanceWindowsTable;
  maintenance_window_checks: MaintenanceWindowChecksTable;
  incidents: IncidentsTable;
  status_pages: StatusPagesTable;
  status_page_checks: StatusPageChecksTable;
  status_page_updates: StatusPageUpdatesTable;
  status_page_update_checks: StatusPageUpdateChecksTable;
  status_page_subscribers: StatusPageSubscribersTable;
  status_page_unsubscribe_tokens: StatusPageUnsubscribeTokensTable;
  status_page_mail: StatusPageMailTable;
  status_page_maintenance_mail: StatusPageMaintenanceMailTable;
  notification_channels: NotificationChannelsTable;
  notification_settings: NotificationSettingsTable;
  system_audit_log: SystemAuditLogTable;
  org_secrets: OrgSecretsTable;
  check_states: CheckStatesTable;
  check_results: CheckResultsTable;
  check_hourly: CheckHourlyTable;
  check_daily: CheckDailyTable;
  check_state_changes: CheckStateChangesTable;
  group_roles: GroupRolesTable;
  saml_providers: SamlProvidersTable;
  saml_requests: SamlRequestsTable;
  saml_used_assertions: SamlUsedAssertionsTable;
  check_channels: CheckChannelsTable;
  notification_outbox: NotificationOutboxTable;
}

export type Flag = 0 | 1;

export interface UsersTable {
  uid: string;
  /** Stored lower-cased, so uniqueness is case-insensitive. */
  email: string;
  name: string;
  password_hash: string | null;
  email_verified: Flag;
  super_admin: Flag;
  must_change_password: Flag;
  created_at: string;
  updated_at: string;
}

export interface OrganizationsTable {
  uid: string;
  slug: string;
  name: string;
  /** Null means unlimited. */
  member_limit: number | null;
  created_at: string;
}

export interface MembersTable {
  organization_uid: string;
  user_uid: string;
  role: Role;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the session id carried in the token. */
  id_hash: string;
  /** A public handle for listing and revoking, never usable as a credential. */
  uid: string;
  user_uid: string;
  method: string;
  client_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ParametersTable {
  uid: string;
  /** Null for system-wide parameters. */
  organization_uid: string | null;
  key: string;
  /** JSON text of the form {"value": ...}. */
  value: string;
  updated_at: string;
}

export interface AuditLogTable {
  /** Time-ordered (see newId), so it doubles as the pagination cursor. */
  uid: string;
  organization_uid: string;
  kind: string;
  actor_uid: string | null;
  target_uid: string | null;
  /** JSON text. */
  data: string;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
}

export interface PersonalTokensTable {
  uid: string;
  token_hash: string;
  user_uid: string;
  organization_uid: string;
  name: string;
  /** JSON array of scopes. */
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface InvitationsTable {
  uid: string;
  organization_uid: string;
  /** Lower-cased; only the account with this address may accept. */
  email: string;
  role: 'owner' | 'admin' | 'user' | 'viewer';
  /** SHA-256 of the token in the invitation link. */
  token_hash: string;
  invited_by_uid: string | null;
  expires_at: string;
  accepted_at: string | null;
  accepted_by_uid: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface MembershipRequestsTable {
  uid: string;
  organization_uid: string;
  user_uid: string;
  message: string | null;
  /** How the request came about: `request` (asked), `email_pattern` or `team_chat` (auto-join fell back). */
  via: string;
  /** `withdrawn`: by the requester, who is then also `decided_by_uid`. */
  status: 'pending' | 'approved' | 'rejected' | 'withdrawn';
  decided_by_uid: string | null;
  decided_at: string | null;
  created_at: string;
}

export interface EmailVerificationsTable {
  /** SHA-256 of the token in the verification link. */
  token_hash: string;
  user_uid: string;
  email: string;
  /** `registration` or `email_change`. */
  purpose: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type User = Selectable<UsersTable>;
/** An account without its password hash: what code acting for a caller is given. */
export type UserProfile = Omit<User, 'password_hash'>;
export type Organization = Selectable<OrganizationsTable>;
export type Session = Selectable<SessionsTable>;

/** A check; `(organization_uid, slug)` is unique. Config, thresholds and labels are JSON text. */
export interface ChecksTable {
  /** Time-ordered (see newId): the list order and its cursor. */
  uid: string;
  organization_uid: string;
  slug: string;
  name: string;
  type: string;
  enabled: Flag;
  interval_seconds: number;
  target: string;
  config: string;
  thresholds: string;
  /** JSON map, the same labels as the check's check_labels rows. */
  labels: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** What the last import set on a check: the source and its definition then (canonical JSON). */
export interface CheckImportBaselinesTable {
  check_uid: string;
  organization_uid: string;
  source: string;
  definition: string;
  imported_at: string;
}

/** A maintenance window (see migration 018): once, or repeated by `recurrence` in `timezone`. */
export interface MaintenanceWindowsTable {
  uid: string;
  organization_uid: string;
  title: string;
  description: string | null;
  starts_at: string;
  ends_at: string;
  /** An RFC 5545 RRULE without DTSTART, or null. */
  recurrence: string | null;
  timezone: string;
  all_checks: Flag;
  /** JSON map of the labels a covered check holds. */
  labels: string;
  /** The import source that made it, or null. */
  import_source: string | null;
  created_at: string;
  updated_at: string;
}

/** A check a maintenance window names. */
export interface MaintenanceWindowChecksTable {
  window_uid: string;
  check_uid: string;
}

/** One label of a check, indexed for `?label=key=value` filtering. */
export interface CheckLabelsTable {
  check_uid: string;
  organization_uid: string;
  key: string;
  value: string;
}

export interface IncidentsTable {
  uid: string;
  organization_uid: string;
  title: string;
  status: 'open' | 'acknowledged' | 'resolved';
  check_uid: string | null;
  check_slug: string | null;
  opened_by: string | null;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  created_at: string;
  updated_at: string;
  /** 1 when the system resolved it (see `resolution`). */
  resolved_by_system: ColumnType<Flag, Flag | undefined, Flag>;
  /** Why the system resolved it; null while unresolved or when a person resolved it. */
  resolution: ColumnType<IncidentResolution | null, IncidentResolution | null | undefined, IncidentResolution | null>;
}

export interface StatusPagesTable {
  uid: string;
  organization_uid: string;
  slug: string;
  title: string;
  description: string | null;
  public: Flag;
  created_at: string;
  updated_at: string;
}

export interface StatusPageChecksTable {
  status_page_uid: string;
  check_uid: string;
  position: number;
}

/** An update posted on a status page (migration 019). */
export interface StatusPageUpdatesTable {
  uid: string;
  status_page_uid: string;
  title: string;
  /** Plain text or the Markdown subset of daemon/status-pages/markdown-subset.ts. */
  body: string;
  state: StatusPageUpdateState;
  created_at: string;
  updated_at: string;
  /** When its state became resolved; null while open. */
  resolved_at: string | null;
}

export interface StatusPageUpdateChecksTable {
  update_uid: string;
  check_uid: string;
  position: number;
}

/** An e-mail subscriber of a status page: personal data, never shown publicly nor logged. */
export interface StatusPageSubscribersTable {
  uid: string;
  status_page_uid: string;
  email: string;
  email_key: string;
  /** SHA-256 of the token of the last confirmation link sent; null once confirmed. */
  confirm_token_hash: string | null;
  confirm_sent_at: string | null;
  confirmed_at: string | null;
  created_at: string;
}

export interface StatusPageUnsubscribeTokensTable {
  token_hash: string;
  subscriber_uid: string;
  created_at: string;
}

/** The outbox of subscriber mail: pending -> leased -> sent, or failed once retrying is over. */
export interface StatusPageMailTable {
  uid: string;
  subscriber_uid: string;
  kind: 'confirmation' | 'message';
  subject: string;
  text: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

/** The maintenance mail queued to a page's subscribers, once per window occurrence and kind (migration 023). */
export interface StatusPageMaintenanceMailTable {
  status_page_uid: string;
  window_uid: string;
  /** ISO start of the occurrence. */
  occurrence_start: string;
  kind: 'scheduled' | 'started';
  created_at: string;
}

export interface NotificationChannelsTable {
  uid: string;
  organization_uid: string;
  name: string;
  type: string;
  /** The JSON settings, secrets included, as a keyring ciphertext (never answered unmasked). */
  config: string;
  /** 1: applies to checks that choose no channel (migration 013). */
  is_default: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: string;
  updated_at: string;
}

export interface NotificationSettingsTable {
  organization_uid: string;
  user_uid: string;
  /** JSON text of the member's settings. */
  settings: string;
  updated_at: string;
}

/** Two-factor columns of users; optional on insert, so accounts are created without them. */
export interface UsersTotpColumns {
  /** The confirmed TOTP secret (base32, as a keyring ciphertext); set means two-factor is on. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** A secret from /auth/2fa/setup awaiting its first code (a keyring ciphertext). */
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<string | null, string | null | undefined, string | null>;
}
/** An OAuth authorization in flight: single use, deleted when the provider returns. */
export interface OAuthStatesTable {
  /** SHA-256 of the `state` parameter. */
  state_hash: string;
  provider: string;
  /** `login` (sign-in) or `install` (team-chat app install). */
  purpose: string;
  code_verifier: string | null;
  nonce: string | null;
  return_to: string;
  /** The signed-in account that started an install. */
  user_uid: string | null;
  /** The organization an install links, when it links an existing one. */
  organization_uid: string | null;
  created_at: string;
  expires_at: string;
}

/** A sign-in waiting for the dashboard to exchange its one-time code. */
export interface HandoffCodesTable {
  /** SHA-256 of the code; the code itself is never stored. */
  code_hash: string;
  user_uid: string;
  method: string;
  return_to: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

/** An external identity (provider, subject) linked to an account. */
export interface LinkedIdentitiesTable {
  provider: string;
  subject: string;
  user_uid: string;
  email: string | null;
  created_at: string;
  last_sign_in_at: string;
}

export interface RecoveryCodesTable {
  code_hash: string;
  user_uid: string;
  created_at: string;
  used_at: string | null;
}

/** TOTP time steps already accepted for a user (replay protection). */
export interface TotpUsedStepsTable {
  user_uid: string;
  step: number;
  used_at: string;
}

/** An organization's link to a team-chat workspace; a removed link no longer matches. */
export interface WorkspaceLinksTable {
  organization_uid: string;
  provider: string;
  workspace_id: string;
  workspace_name: string | null;
  linked_by: string | null;
  created_at: string;
  removed_at: string | null;
}

/** A password reset link; only the SHA-256 of its token is stored. */
export interface PasswordResetsTable {
  token_hash: string;
  user_uid: string;
  /** The address the link was mailed to; the link works only while the account still has it. */
  email: string;
  /** The super admin who asked for it; null when the account holder asked. */
  requested_by_uid: string | null;
  created_at: string;
  expires_at: string;
  /** Set when used, or voided by a newer link: a link works once. */
  used_at: string | null;
}

/** The server's audit log: events above any one organization (see migration 008). */
export interface SystemAuditLogTable {
  /** Time-ordered (see newId), so it doubles as the pagination cursor. */
  uid: string;
  kind: string;
  actor_uid: string | null;
  target_uid: string | null;
  /** The organization concerned, if any; it may no longer exist. */
  organization_uid: string | null;
  /** JSON text. */
  data: string;
  created_at: string;
}

/** An organization secret; `value` is a keyring ciphertext, never clear text. */
export interface OrgSecretsTable {
  organization_uid: string;
  name: string;
  value: string;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A check's state as the monitoring engine sees it: schedule, lease, state and last result. */
export interface CheckStatesTable {
  /** A small integer naming the check in results and aggregates. */
  series: ColumnType<number, number | undefined, never>;
  check_uid: string;
  /** Epoch ms when the next run is due; a claim moves it to the lease's end. */
  next_run_at: number;
  /** The runner holding the current claim, or null. */
  lease_owner: string | null;
  state: 'pending' | 'up' | 'degraded' | 'down' | 'paused' | 'maintenance';
  state_since: string;
  fail_streak: number;
  success_streak: number;
  last_at: number | null;
  /** 0 up, 1 degraded, 2 down. */
  last_status: number | null;
  last_latency_ms: number | null;
  last_message: string | null;
  incident_uid: string | null;
  ping_token: string;
  last_ping_at: number | null;
  armed_at: number;
  /** Heartbeat: when the job signalled the start of a run that has not ended yet (epoch ms). */
  run_started_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One raw result: epoch ms, status code (0 up, 1 degraded, 2 down), null message for "ok". */
export interface CheckResultsTable {
  series: number;
  at: number;
  status: number;
  latency_ms: number;
  message: string | null;
}

/** One hour of one check: counts and a latency histogram (h0..h11, see latency-histogram.ts). */
export interface CheckHourlyTable {
  series: number;
  hour: number;
  runs: number;
  down_runs: number;
  degraded_runs: number;
  h0: number;
  h1: number;
  h2: number;
  h3: number;
  h4: number;
  h5: number;
  h6: number;
  h7: number;
  h8: number;
  h9: number;
  h10: number;
  h11: number;
}

/** One day of one check: the same counts as an hour, summed (long uptime windows read these). */
export type CheckDailyTable = Omit<CheckHourlyTable, 'hour'> & { day: number };

/** A check's state change, kept with the incident it opened or resolved. */
export interface CheckStateChangesTable {
  uid: string;
  organization_uid: string;
  check_uid: string | null;
  check_slug: string;
  from_state: string;
  to_state: string;
  message: string | null;
  incident_uid: string | null;
  at: string;
}

/** A directory group of an organization and the role its members get (SAML and LDAP; see migration 014). */
export interface GroupRolesTable {
  organization_uid: string;
  group_name: string;
  /** `admin`, `user` or `viewer`: never `owner`. */
  role: string;
}

/** The SAML identity provider of an organization, read from its metadata. */
export interface SamlProvidersTable {
  organization_uid: string;
  metadata_xml: string;
  /** Where the metadata was fetched from, when it was given by address. */
  metadata_url: string | null;
  idp_entity_id: string;
  idp_sso_url: string;
  /** JSON array of the PEM bodies of the provider's signing certificates. */
  idp_certificates: string;
  /** 1: the organization's members sign in through SAML only (super admins excepted). */
  required: Flag;
  created_at: string;
  updated_at: string;
}

/** A SAML authentication request sent and not yet answered: its ID must come back as InResponseTo. */
export interface SamlRequestsTable {
  request_id: string;
  organization_uid: string;
  return_to: string;
  created_at: string;
  expires_at: string;
}

/** An assertion already used to sign in, kept until it expires so it cannot be replayed. */
export interface SamlUsedAssertionsTable {
  organization_uid: string;
  assertion_id: string;
  expires_at: string;
}

/** A channel a check chose; a check with none gets the organization's default channels. */
export interface CheckChannelsTable {
  check_uid: string;
  channel_uid: string;
  organization_uid: string;
}

/** One message to deliver to one channel or person, and its delivery log (see daemon/notify). */
export interface NotificationOutboxTable {
  /** Time-ordered (see newId): the log's order and cursor. */
  uid: string;
  organization_uid: string;
  /** Null for a member's personal e-mail. */
  channel_uid: string | null;
  channel_type: string;
  /** The member's address of a personal e-mail. */
  recipient: string | null;
  incident_uid: string | null;
  check_uid: string | null;
  event: string;
  /** JSON text of the message's facts (never a secret). */
  payload: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_attempt_at: string | null;
  last_response_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}
