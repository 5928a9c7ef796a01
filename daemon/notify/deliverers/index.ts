import type { ChannelType } from '../../notifications/channel-types.js';
import type { Deliverer } from './deliverer.js';
import { deliverDiscord } from './discord.js';
import { deliverEmail } from './email.js';
import { deliverGoogleChat } from './googlechat.js';
import { deliverMattermost } from './mattermost.js';
import { deliverNtfy } from './ntfy.js';
import { deliverOpsgenie } from './opsgenie.js';
import { deliverPagerduty } from './pagerduty.js';
import { deliverPushover } from './pushover.js';
import { deliverSlack } from './slack.js';
import { deliverTeams } from './teams.js';
import { deliverTelegram } from './telegram.js';
import { deliverWebhook } from './webhook.js';

/** The deliverer of each channel type: adding a type is one file here and its line below. */
export const DELIVERERS: Record<ChannelType, Deliverer> = {
  email: deliverEmail,
  webhook: deliverWebhook,
  slack: deliverSlack,
  discord: deliverDiscord,
  teams: deliverTeams,
  telegram: deliverTelegram,
  pagerduty: deliverPagerduty,
  opsgenie: deliverOpsgenie,
  googlechat: deliverGoogleChat,
  mattermost: deliverMattermost,
  ntfy: deliverNtfy,
  pushover: deliverPushover,
};
