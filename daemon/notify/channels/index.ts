import type { ChannelType } from '../../../contract/notification-channels.js';
import type { ChannelTypeDefinition } from './channel-type.js';
import { discordChannel } from './discord.js';
import { emailChannel } from './email.js';
import { googleChatChannel } from './googlechat.js';
import { mattermostChannel } from './mattermost.js';
import { ntfyChannel } from './ntfy.js';
import { opsgenieChannel } from './opsgenie.js';
import { pagerdutyChannel } from './pagerduty.js';
import { pushoverChannel } from './pushover.js';
import { slackChannel } from './slack.js';
import { teamsChannel } from './teams.js';
import { telegramChannel } from './telegram.js';
import { webhookChannel } from './webhook.js';

/** Every channel type, each defined in one file here: adding a type is that file and its line below. */
export const CHANNEL_TYPE_DEFINITIONS: Record<ChannelType, ChannelTypeDefinition> = {
  email: emailChannel,
  webhook: webhookChannel,
  slack: slackChannel,
  discord: discordChannel,
  teams: teamsChannel,
  telegram: telegramChannel,
  pagerduty: pagerdutyChannel,
  opsgenie: opsgenieChannel,
  googlechat: googleChatChannel,
  mattermost: mattermostChannel,
  ntfy: ntfyChannel,
  pushover: pushoverChannel,
};
