/** A notification channel as the API answers it: secrets masked. */
export interface Channel {
  uid: string;
  name: string;
  type: string;
  default: boolean;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** One entry of a channel's delivery log. */
export interface ChannelDelivery {
  uid: string;
  event: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  responseCode: number | null;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}

/** The result of `POST .../test`. */
export interface ChannelTestResult {
  ok: boolean;
  responseCode: number | null;
  error: string | null;
}

export const CHANNEL_TYPES = ['email', 'webhook', 'slack', 'discord', 'teams', 'telegram', 'pagerduty', 'opsgenie', 'googlechat', 'mattermost', 'ntfy', 'pushover'] as const;

export const channelsPath = (org: string) => `/orgs/${encodeURIComponent(org)}/notification-channels`;
