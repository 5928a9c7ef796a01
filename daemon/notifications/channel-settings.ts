import type { ChannelType } from '../../contract/notification-channels.js';
import type { ChannelConfig } from '../notify/channels/channel-type.js';
import { CHANNEL_TYPE_DEFINITIONS } from '../notify/channels/index.js';

// A channel's stored settings as the API shows and changes them. Webhook URLs and tokens are
// secrets: whoever holds one can post as the organization, so they are stored for delivery but
// the API only ever shows them masked. Which fields are secrets, and which say where a channel
// sends, is in each type's one definition (daemon/notify/channels/).

export type { ChannelConfig } from '../notify/channels/channel-type.js';

const MASK = '****';

/**
 * A secret as the API shows it: a URL keeps only its scheme and host (enough to recognise
 * which service it posts to), a token only its last four characters when it is long enough
 * that they give nothing away.
 */
export function maskSecret(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.protocol}//${url.host}/${MASK}`;
  } catch {
    // not a URL: a token
  }
  return value.length >= 20 ? `${MASK}${value.slice(-4)}` : MASK;
}

/** The config with every secret field masked. */
export function maskConfig(type: ChannelType, config: ChannelConfig): ChannelConfig {
  const masked = { ...config };
  for (const field of CHANNEL_TYPE_DEFINITIONS[type].secrets) {
    const value = masked[field];
    if (typeof value === 'string') masked[field] = maskSecret(value);
  }
  return masked;
}

/**
 * The secrets a change would carry to a new destination: when a PATCH changes any field that
 * says where the channel sends (the webhook's URL, the ntfy server or topic, the chat id), every
 * secret stored must be sent again in the same request (or null to drop it), or a member could
 * point the channel at their own host and receive the topic, the token, or validly signed
 * deliveries. One issue per secret left out (or sent back masked).
 */
export function secretsLeftBehind(type: ChannelType, stored: ChannelConfig, changes: Record<string, unknown>): { path: string; message: string }[] {
  const settings = CHANNEL_TYPE_DEFINITIONS[type];
  const moved = settings.destination.filter((field) => destinationChanges(stored[field], changes[field]));
  if (moved.length === 0) return [];
  const issues: { path: string; message: string }[] = [];
  for (const secret of settings.secrets) {
    const kept = stored[secret];
    if (kept === undefined || moved.includes(secret)) continue;
    const sent = changes[secret];
    if (sent === null || (typeof sent === 'string' && !(typeof kept === 'string' && sent === maskSecret(kept)))) continue;
    issues.push({
      path: `config.${secret}`,
      message: `send ${secret} again (or null to remove it) when ${moved.join(' or ')} changes: a stored secret is not sent to a new destination`,
    });
  }
  return issues;
}

/** Whether a PATCH value moves a destination field: left out, the same, or sent back masked is no move. */
function destinationChanges(current: unknown, next: unknown): boolean {
  if (next === undefined) return false;
  if (next === null) return current !== undefined;
  if (typeof current === 'string' && (next === current || next === maskSecret(current))) return false;
  if (typeof current !== 'string' && JSON.stringify(next) === JSON.stringify(current)) return false;
  return true;
}

/**
 * Merges changed config fields onto the stored ones (same type): a field left out keeps its
 * value, `null` removes it, and a secret sent back exactly as the API masked it keeps the
 * stored secret, so a client may round-trip what it read.
 */
export function mergeConfig(type: ChannelType, stored: ChannelConfig, changes: Record<string, unknown>): ChannelConfig {
  const merged: ChannelConfig = { ...stored };
  const secrets = CHANNEL_TYPE_DEFINITIONS[type].secrets;
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete merged[field];
    else if (secrets.includes(field) && isMaskOf(stored[field], value)) continue;
    else merged[field] = value;
  }
  return merged;
}

/** Whether a value sent back is exactly how the API masked the stored one. */
const isMaskOf = (stored: unknown, sent: unknown): boolean => typeof stored === 'string' && sent === maskSecret(stored);
