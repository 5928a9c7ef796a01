// Every success answer of the API by name: a route declares `response: '<name>'`, its handler
// must return that type (daemon/routes/route.ts), and the OpenAPI document describes the body
// with the JSON Schema generated from it (scripts/generate-response-schemas.mjs). Types only.
import type { EnterpriseTenant, GroupRoles, RedirectUrl, SamlProvider, WorkspaceLink } from './enterprise-sign-in.js';
import type { MaintenanceWindow } from './maintenance-windows.js';
import type { ChannelDelivery, ChannelTestResult, ChannelTypeInfo, CheckChannels, NotificationChannel, NotificationSettings } from './notification-channels.js';
import type {
  Account,
  AuditEntry,
  Check,
  CheckResult,
  CheckStateCounts,
  CheckTypeListing,
  CheckValidation,
  CreatedInvitation,
  EmailVerified,
  HandoffAnswer,
  HashingView,
  Health,
  ImportResult,
  Incident,
  Invitation,
  InvitationAccepted,
  List,
  LoginAnswer,
  Member,
  MembershipDecision,
  MembershipRequest,
  MembershipRequested,
  MintedToken,
  MonitoredCheck,
  Organization,
  OrganizationSummary,
  OwnMembershipRequest,
  Page,
  PasswordResetIssued,
  PasswordResetRequested,
  PingAnswer,
  Provider,
  RecoveryCodes,
  Registered,
  Revoked,
  SecretsRotated,
  SecretSummary,
  SecretWritten,
  Session,
  SessionView,
  StateChange,
  SystemAuditEntry,
  SystemUser,
  TokenView,
  TwoFactorSetup,
  Uptime,
} from './responses.js';
import type { PublicStatus, StatusPage, StatusPageUpdate, Subscriber, SubscriberCounts, SubscriptionRequested } from './status-pages.js';

/** The body of each success answer, by the name a route declares. */
export interface ResponseBodies {
  Account: Account;
  AuditEntryPage: Page<AuditEntry>;
  ChannelDeliveryPage: Page<ChannelDelivery>;
  ChannelTestResult: ChannelTestResult;
  ChannelTypeList: ChannelTypeInfo[];
  Check: Check;
  CheckChannels: CheckChannels;
  CheckPage: Page<MonitoredCheck>;
  CheckResult: CheckResult;
  CheckResultPage: Page<CheckResult>;
  CheckStateCounts: CheckStateCounts;
  CheckTypeList: CheckTypeListing[];
  CheckValidation: CheckValidation;
  CreatedInvitation: CreatedInvitation;
  EmailVerified: EmailVerified;
  EnterpriseTenant: EnterpriseTenant;
  GroupRoles: GroupRoles;
  HandoffAnswer: HandoffAnswer;
  HashingView: HashingView;
  Health: Health;
  ImportResult: ImportResult;
  Incident: Incident;
  IncidentPage: Page<Incident>;
  InvitationAccepted: InvitationAccepted;
  InvitationPage: Page<Invitation>;
  LoginAnswer: LoginAnswer;
  MaintenanceWindow: MaintenanceWindow;
  MaintenanceWindowList: List<MaintenanceWindow>;
  Member: Member;
  MemberList: List<Member>;
  MembershipDecision: MembershipDecision;
  MembershipRequestPage: Page<MembershipRequest>;
  MembershipRequested: MembershipRequested;
  MintedToken: MintedToken;
  NotificationChannel: NotificationChannel;
  NotificationChannelPage: Page<NotificationChannel>;
  NotificationSettings: NotificationSettings;
  /** The OpenAPI 3.1 document itself. */
  OpenApiDocument: Record<string, unknown>;
  Organization: Organization;
  OrganizationList: List<OrganizationSummary>;
  OwnMembershipRequestPage: Page<OwnMembershipRequest>;
  PasswordResetIssued: PasswordResetIssued;
  PasswordResetRequested: PasswordResetRequested;
  PingAnswer: PingAnswer;
  ProviderList: Provider[];
  PublicStatus: PublicStatus;
  RecoveryCodes: RecoveryCodes;
  RedirectUrl: RedirectUrl;
  Registered: Registered;
  Revoked: Revoked;
  SamlProvider: SamlProvider;
  SecretList: List<SecretSummary>;
  SecretsRotated: SecretsRotated;
  SecretWritten: SecretWritten;
  Session: Session;
  SessionList: List<SessionView>;
  StateChangePage: Page<StateChange>;
  StatusPage: StatusPage;
  StatusPagePage: Page<StatusPage>;
  StatusPageUpdate: StatusPageUpdate;
  StatusPageUpdatePage: Page<StatusPageUpdate>;
  SubscriberCounts: SubscriberCounts;
  SubscriberList: List<Subscriber>;
  SubscriptionRequested: SubscriptionRequested;
  SystemAuditEntryPage: Page<SystemAuditEntry>;
  SystemUserPage: Page<SystemUser>;
  TokenList: List<TokenView>;
  TwoFactorSetup: TwoFactorSetup;
  Uptime: Uptime;
  WorkspaceLink: WorkspaceLink;
}

/** The name of a success answer, as a route declares it. */
export type ResponseName = keyof ResponseBodies;
