/** Shapes of the API's answers, as documented in docs/api.md. */

export type Role = 'owner' | 'admin' | 'user' | 'viewer';

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
}

export interface Session {
  accessToken: string;
  tokenType: 'Bearer';
  expiresAt: string;
  user: Account;
}

/** `POST /auth/login` answers a session, or asks for the second factor. */
export type LoginAnswer = Session | { mfaRequired: true; mfaToken: string };

export interface HandoffAnswer extends Session {
  returnTo?: string | null;
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

export type Scope = 'api' | 'api:read' | 'mcp' | 'mcp:read';

export interface TokenView {
  uid: string;
  name: string;
  org: string;
  scopes: Scope[];
  expiresAt: string | null;
  lastUsedAt?: string | null;
  createdAt?: string;
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
  target: { kind: string; description: string; example?: string; schemes?: string[] };
  schema: JsonSchema;
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
}

export type ImportSource = 'configfile-monitor' | 'hosted-monitor-api' | 'selfhosted-monitor-db' | 'uptime-api-monitor';

export interface ImportWarning {
  item: string;
  slug?: string | null;
  code: string;
  field?: string | null;
  message: string;
}

export interface ImportResult {
  source: ImportSource;
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  warnings: ImportWarning[];
  checks: { slug: string; name: string; type: string; action: 'create' | 'update' | 'unchanged' | 'skip' }[];
}

export interface Member {
  uid: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

export interface Invitation {
  uid: string;
  email: string;
  role: Role;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  invitedBy: string | null;
  expiresAt: string;
  acceptedAt: string | null;
  createdAt: string;
}

export interface CreatedInvitation extends Invitation {
  token: string;
  url: string;
}

export interface MembershipRequest {
  uid: string;
  user: { uid: string; email: string; name: string };
  message: string | null;
  via: string;
  status: 'pending' | 'approved' | 'rejected';
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

export interface NotificationSettings {
  org: string;
  email: boolean;
  events: string[];
  quietHours: { start: string; end: string; timeZone: string } | null;
  updatedAt: string | null;
}

export interface Organization {
  uid: string;
  slug: string;
  name: string;
  role: Role;
  memberCount: number;
  memberLimit: number | null;
  registrationEmailPattern: string | null;
  createdAt: string;
}

export interface Incident {
  uid: string;
  title: string;
  status: 'open' | 'acknowledged' | 'resolved';
  checkSlug: string | null;
  openedBy: { uid: string; email: string; name: string } | null;
  createdAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: { uid: string; email: string; name: string } | null;
  resolvedAt: string | null;
  resolvedBy: { uid: string; email: string; name: string } | null;
  updatedAt: string;
}
