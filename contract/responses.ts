// The shapes of the API's answers (docs/api.md): the daemon's view functions produce them, the
// CLI and the dashboard read them. Types only, and no imports outside the contract.
import type { Role, Scope } from './access.js';
import type { ImportSource } from './import-sources.js';
import type { ImportWarningCode } from './import-warnings.js';
import type { CheckState, IncidentStatus, UptimeWindow } from './states.js';

export interface Account {
  uid: string;
  email: string;
  emailVerified: boolean;
  name: string;
  hasPassword: boolean;
  twoFactorEnabled: boolean;
  superAdmin: boolean;
  mustChangePassword: boolean;
  organizations: { slug: string; name: string; role: Role }[];
  /** Called with a personal access token: the slug of the one organization the token reaches. */
  tokenOrganization?: string;
}

export interface Session {
  accessToken: string;
  tokenType: 'Bearer';
  expiresAt: string;
  user: Account;
}

/** What a first factor answers for an account with two-factor: the token that goes with the code. */
export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
}

/** `POST /auth/login` answers a session, or asks for the second factor. */
export type LoginAnswer = Session | MfaChallenge;

/** `POST /auth/handoff/exchange`: a sign-in's answer, and where the browser was going. */
export type HandoffAnswer = LoginAnswer & { returnTo?: string | null };

/** `POST /auth/register`: the new account. */
export interface Registered {
  user: Account;
}

/** `POST /auth/verify-email`: the address now verified. */
export interface EmailVerified {
  email: string;
  emailVerified: true;
}

/** How many sessions were signed out. */
export interface Revoked {
  revoked: number;
}

/** `POST /auth/2fa/confirm`: the one-time recovery codes, shown once. */
export interface RecoveryCodes {
  recoveryCodes: string[];
}

/** `POST /auth/password-reset`: the same answer whether or not the address has an account. */
export interface PasswordResetRequested {
  message: string;
  /** False when this server sends no mail: no link is on its way. */
  mailed: boolean;
  expiresInSeconds: number;
}

/** `POST /system/users/{uid}/password-reset`: the link issued for an account. */
export interface PasswordResetIssued {
  userUid: string;
  email: string;
  expiresAt: string;
  mailed: boolean;
  /** Only when the daemon sends no mail, to pass on by other means. */
  url?: string;
}

/** `GET /health` and `GET /ready`. */
export interface Health {
  status: 'ok' | 'ready';
  version: string;
  database: 'sqlite' | 'postgres';
}

export interface Provider {
  key: string;
  kind: string;
  displayName: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A listing that is never long enough to need pages. */
export interface List<T> {
  items: T[];
}

export type PasswordAlgorithm = 'argon2id' | 'bcrypt';

export interface Argon2Costs {
  memory: number;
  time: number;
  threads: number;
  keyLength: number;
  saltLength: number;
}

export interface PasswordPolicy {
  algorithm: PasswordAlgorithm;
  argon2: Argon2Costs;
  bcrypt: { cost: number };
  rehashOnLogin: boolean;
}

export interface PolicyOverrides {
  algorithm?: PasswordAlgorithm | null;
  argon2?: Partial<Record<keyof Argon2Costs, number | null>> | null;
  bcrypt?: { cost?: number | null } | null;
  rehashOnLogin?: boolean | null;
}

export interface HashingView {
  effective: PasswordPolicy;
  overrides: PolicyOverrides;
  presets: Record<string, PolicyOverrides>;
  pendingRestart: boolean;
}

export interface TokenView {
  uid: string;
  name: string;
  org: string;
  scopes: Scope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface MintedToken extends TokenView {
  token: string;
}

export interface TwoFactorSetup {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

/** A JSON Schema node, as far as the generated forms read it. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export interface CheckType {
  type: string;
  title: string;
  description: string;
  target: { kind: string; description: string; example?: string; schemes?: readonly string[] };
  schema: JsonSchema;
}

/** A check type as `GET /check-types` lists it: whether this daemon can run it, and why not. */
export interface CheckTypeListing extends CheckType {
  runnable: boolean;
  reason?: string;
}

export interface Thresholds {
  timeoutMs: number;
  degradedResponseMs?: number;
  failuresBeforeDown: number;
  successesBeforeUp: number;
}

export interface Check {
  slug: string;
  name: string;
  type: string;
  enabled: boolean;
  intervalSeconds: number;
  target: string;
  config: Record<string, unknown>;
  thresholds: Thresholds;
  labels: Record<string, string>;
  description?: string;
  createdAt?: string;
  updatedAt?: string;
  /** What the engine adds (list and one check): the state, since when, and the last result. */
  state?: CheckState;
  stateSince?: string;
  lastResult?: CheckResult | null;
  /** Heartbeat checks only: where the monitored job pings. */
  pingUrl?: string;
  /** Create, change, validate: secrets the check refers to that the organization has not set. */
  missingSecrets?: string[];
}

export type { CheckState, IncidentStatus, UptimeWindow } from './states.js';

/** One run of a check. */
export interface CheckResult {
  at: string;
  status: 'up' | 'degraded' | 'down';
  latencyMs: number;
  message: string;
}

/** A check as the API lists it: the definition plus its state and last result. */
export interface MonitoredCheck extends Check {
  state: CheckState;
  stateSince: string;
  lastResult: CheckResult | null;
  /** With `?include=uptime24h`. */
  uptime24h?: number | null;
  /** With `?include=latencies`: the response times of the last 20 runs, oldest first. */
  recentLatencies?: number[];
}

/** How many checks of an organization are in each state (`GET /orgs/{org}/check-states`). */
export interface CheckStateCounts {
  total: number;
  counts: Record<CheckState, number>;
}

/** A check's change of state, with the incident it opened or resolved (`GET /orgs/{org}/state-changes`). */
export interface StateChange {
  uid: string;
  /** The check's slug when it changed (kept after the check is deleted). */
  checkSlug: string;
  from: CheckState;
  to: CheckState;
  /** The result's message that caused the change. */
  message: string | null;
  incidentUid: string | null;
  at: string;
}

/** Uptime of a check over a window. */
export interface Uptime {
  window: UptimeWindow;
  uptimePercent: number | null;
  runs: number;
  downRuns: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  buckets?: Array<{ start: string; uptimePercent: number | null; runs: number }>;
}

/** An organization secret as listed: never its value. */
export interface SecretSummary {
  name: string;
  createdAt: string;
  updatedAt: string;
  /** Slugs of the checks that refer to it as {{secrets.NAME}}. */
  usedBy: string[];
}

export interface ImportWarning {
  /** The item as the source names it (a monitor's name, or its position when it has none). */
  item: string;
  /** The slug of the check the item became; absent when the item was skipped. */
  slug?: string;
  code: ImportWarningCode;
  /** The source's field the warning is about, in the source's own spelling. */
  field?: string;
  message: string;
}

/** What an import does (or, in a preview, would do) with one item. */
/** `conflict`: a check of that slug belongs to another source or was made by hand, and is left alone. */
export type ImportAction = 'create' | 'update' | 'unchanged' | 'conflict' | 'skip';

/** One entry of an import's `checks`: a converted check, or an item that was skipped. */
export interface ImportCheckEntry {
  /** Absent for a skipped item, which has no check. */
  slug?: string;
  /** The check's name; for a skipped item, the item as the source names it. */
  name: string;
  /** Absent for a skipped item. */
  type?: string;
  action: ImportAction;
  /** For a skipped item: the warning code that explains it. */
  reason?: ImportWarningCode;
  /** For a skipped item: that warning's sentence. */
  message?: string;
  /** For an `update`: each field it changes, by its dotted path (`intervalSeconds`, `config.method`). */
  changes?: ImportFieldChange[];
  /**
   * Fields changed both here and in the source since the last import of this check: the value
   * here is kept unless the import was run with `overwrite` (then the source's is taken).
   */
  conflicts?: ImportFieldConflict[];
}

/** One field an import changes on an existing check; `from` or `to` is absent when the field is absent. */
export interface ImportFieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

/** One field changed both here and in the source since the last import; absent values mean the field is absent. */
export interface ImportFieldConflict {
  field: string;
  /** The value here now. */
  here?: unknown;
  /** The source's value now. */
  source?: unknown;
  /** Which value the check has after the import: `here` (kept), or `source` (with overwrite). */
  taken: 'here' | 'source';
}

export interface ImportResult {
  source: ImportSource;
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  /** Checks left alone because another source (or a person) owns their slug. */
  conflicts: number;
  skipped: number;
  warnings: ImportWarning[];
  /** The converted checks in input order with their action, then the skipped items. */
  checks: ImportCheckEntry[];
  /** Maintenance windows the source defines, written in place of those its last import made (absent when none). */
  maintenanceWindows?: number;
  /** What the import does, as one value: an apply with `?expect=<digest>` writes only when it would do exactly that. */
  digest?: string;
}

export interface Member {
  uid: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface Invitation {
  uid: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  invitedBy: string | null;
  expiresAt: string;
  acceptedAt: string | null;
  createdAt: string;
}

export interface CreatedInvitation extends Invitation {
  token: string;
  url: string;
}

export type MembershipRequestStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';

export interface MembershipRequest {
  uid: string;
  user: { uid: string; email: string; name: string };
  message: string | null;
  via: string;
  status: MembershipRequestStatus;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
}

export interface AuditEntry {
  uid: string;
  kind: string;
  actor: { uid: string; email: string | null } | null;
  target: { uid: string; email: string | null } | null;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface SessionView {
  id: string;
  method: string;
  clientAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  current: boolean;
}

export interface SystemUser {
  uid: string;
  email: string;
  name: string;
  emailVerified: boolean;
  hasPassword: boolean;
  superAdmin: boolean;
  createdAt: string;
}

export interface Organization {
  uid: string;
  slug: string;
  name: string;
  role: Role;
  memberCount: number;
  memberLimit: number | null;
  /** Checks the organization may hold (the daemon's SVC_CHECKS_PER_ORG_LIMIT); null: no limit. */
  checkLimit: number | null;
  registrationEmailPattern: string | null;
  createdAt: string;
}

/** Why the system resolved an incident. */
export type IncidentResolution = 'recovered' | 'check-paused' | 'check-deleted';

/** Who did something, as an incident shows it. */
export interface IncidentActor {
  uid: string;
  email: string;
  name: string;
}

export interface Incident {
  uid: string;
  title: string;
  status: IncidentStatus;
  checkSlug: string | null;
  openedBy: IncidentActor | null;
  createdAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: IncidentActor | null;
  resolvedAt: string | null;
  resolvedBy: IncidentActor | null;
  /** True when the system resolved the incident (`resolution` says why). */
  resolvedBySystem: boolean;
  /** Why the system resolved it: the check recovered, or was paused or deleted. Null otherwise. */
  resolution: IncidentResolution | null;
  /** The message of the result that opened it, when a check going down did; null otherwise. */
  openingMessage: string | null;
  updatedAt: string;
}

/** `POST /orgs/{org}/checks/validate`: the normalised check and the secrets it refers to that are not set. */
export interface CheckValidation {
  valid: true;
  check: Check;
  missingSecrets: string[];
}

/** An organization as `GET /orgs` lists it, with the caller's role. */
export interface OrganizationSummary {
  uid: string;
  slug: string;
  name: string;
  role: Role;
  createdAt: string;
}

/** `POST /invitations/{token}/accept`: the organization joined and the role. */
export interface InvitationAccepted {
  org: string;
  role: Role;
}

/** `POST /membership-requests`: the request is on its way to the organization's admins. */
export interface MembershipRequested {
  org: string;
  status: 'requested';
}

/** An admin's decision on a membership request; `role` when approved. */
export interface MembershipDecision {
  status: 'approved' | 'rejected';
  userUid: string;
  role?: Role;
}

/** A membership request as its requester sees it: which organization, and where it stands. */
export interface OwnMembershipRequest {
  uid: string;
  org: string;
  message: string | null;
  via: string;
  status: MembershipRequestStatus;
  decidedAt: string | null;
  createdAt: string;
}

/** An entry of the server's audit log: an organization's entry plus the organization concerned. */
export interface SystemAuditEntry extends AuditEntry {
  organizationUid: string | null;
}

/** `PUT /orgs/{org}/secrets/{name}`: whether the secret was created or replaced. */
export interface SecretWritten {
  name: string;
  created: boolean;
  createdAt: string;
  updatedAt: string;
}

/** `POST /system/secrets/rotate`: how many values were sealed again, and with which key. */
export interface SecretsRotated {
  reencrypted: number;
  keyId: string;
}

/** What a heartbeat ping answers: whether the ping counted. */
export interface PingAnswer {
  ok: true;
  recorded: boolean;
}
