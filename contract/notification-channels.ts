// Notification channels, their delivery log and the member's notification settings, as the API
// answers them. No imports outside the contract: the dashboard bundles it.

/** The kinds of notification channel. */
export const CHANNEL_TYPES = [
  'email',
  'webhook',
  'slack',
  'discord',
  'teams',
  'telegram',
  'pagerduty',
  'opsgenie',
  'googlechat',
  'mattermost',
  'ntfy',
  'pushover',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel type as `GET /channel-types` answers it: what the dashboard and the CLI offer. */
export interface ChannelTypeInfo {
  type: ChannelType;
  title: string;
  description: string;
  /** The JSON Schema (draft 2020-12) of the channel's `config`. */
  configSchema: Record<string, unknown>;
  /** Config fields only ever shown masked. */
  secrets: string[];
  /** Config fields that say where it sends: changing one needs every stored secret sent again. */
  destination: string[];
  /** Valid settings to start from, with placeholders. */
  sample: Record<string, unknown>;
}

/** The events a member can be notified of. */
export const NOTIFICATION_EVENTS = ['incident.opened', 'incident.acknowledged', 'incident.resolved', 'check.down', 'check.up'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** A notification channel as the API answers it: secrets masked, always. */
export interface NotificationChannel {
  uid: string;
  name: string;
  type: ChannelType;
  /** The type's settings, secrets masked. */
  config: Record<string, unknown>;
  /** Applies to every check that chooses no channel of its own. */
  default: boolean;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed';

/** One entry of a channel's delivery log: never the payload's secrets nor a lease. */
export interface ChannelDelivery {
  uid: string;
  event: string;
  incidentUid: string | null;
  checkUid: string | null;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  responseCode: number | null;
  error: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** What `POST .../notification-channels/{uid}/test` answers: whether the test message was delivered. */
export interface ChannelTestResult {
  ok: boolean;
  responseCode: number | null;
  error: string | null;
}

/** The channels a check notifies (`GET`/`PUT /orgs/{org}/checks/{slug}/channels`): channel uids. */
export interface CheckChannels {
  channels: string[];
}

/** A member's notification settings in one organization. */
export interface NotificationSettings {
  org: string;
  email: boolean;
  events: NotificationEvent[];
  quietHours: { start: string; end: string; timeZone: string } | null;
  updatedAt: string | null;
}
