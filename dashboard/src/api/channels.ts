// Notification channels: their shapes and types are the contract's.
import type { NotificationChannel } from './types';

export { CHANNEL_TYPES } from '../../../contract/notification-channels';
export type { ChannelDelivery, ChannelTestResult } from './types';
/** A notification channel as the API answers it: secrets masked. */
export type Channel = NotificationChannel;

export const channelsPath = (org: string) => `/orgs/${encodeURIComponent(org)}/notification-channels`;
