// Notification channels: their shapes and types are the contract's.
import type { NotificationChannel } from './types';

export { CHANNEL_TYPES } from '../../../contract/notification-channels';
export type { ChannelDelivery, ChannelTestResult } from './types';
export type { ChannelTypeInfo } from '../../../contract/notification-channels';
/** A notification channel as the API answers it: secrets masked. */
export type Channel = NotificationChannel;

export const channelsPath = (org: string) => `/orgs/${encodeURIComponent(org)}/notification-channels`;

/** Every channel type with its settings' schema and a sample: the daemon's own definitions. */
export const channelTypesPath = '/channel-types';
