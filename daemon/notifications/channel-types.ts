import { z } from 'zod';
import type { ChannelType } from '../../contract/notification-channels.js';

// The kinds of notification channel and their settings. Webhook URLs and tokens are secrets:
// whoever holds one can post as the organization, so they are stored for delivery but the API
// only ever shows them masked.

export { CHANNEL_TYPES, type ChannelType } from '../../contract/notification-channels.js';

const httpUrl = (schemes: string[]) =>
  z
    .string()
    .max(2048)
    .refine(
      (value) => {
        try {
          return schemes.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      `must be an ${schemes.join(' or ')} URL`,
    );

const token = z.string().min(8).max(1024).regex(/^\S+$/, 'must not contain spaces');

/**
 * Each type's config schema, which of its fields are secrets, and which say where it sends
 * (`destination`): a change of destination needs every stored secret sent again.
 */
export const CHANNEL_CONFIGS = {
  email: {
    schema: z.strictObject({ addresses: z.array(z.email()).min(1).max(50) }),
    secrets: [] as string[],
    destination: ['addresses'],
  },
  webhook: {
    schema: z.strictObject({
      url: httpUrl(['http', 'https']),
      method: z.enum(['POST', 'PUT']).default('POST'),
      bearerToken: token.optional(),
      /** Signs every delivery (`X-Svc-Signature`), so the receiver can tell it came from here. */
      signingSecret: z.string().min(16).max(256).optional(),
    }),
    secrets: ['url', 'bearerToken', 'signingSecret'],
    destination: ['url'],
  },
  slack: {
    schema: z
      .strictObject({ webhookUrl: httpUrl(['https']).optional(), botToken: token.optional(), channel: z.string().min(1).max(80).optional() })
      .superRefine((config, ctx) => {
        if (config.webhookUrl === undefined && config.botToken === undefined) {
          ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'set webhookUrl, or botToken with channel' });
        }
        if (config.botToken !== undefined && config.channel === undefined) {
          ctx.addIssue({ code: 'custom', path: ['channel'], message: 'required with botToken' });
        }
      }),
    secrets: ['webhookUrl', 'botToken'],
    destination: ['webhookUrl', 'channel'],
  },
  discord: {
    schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
    secrets: ['webhookUrl'],
    destination: ['webhookUrl'],
  },
  /** Microsoft Teams: a Workflows (Power Automate) "post to a channel when a webhook request is received" URL. */
  teams: {
    schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
    secrets: ['webhookUrl'],
    destination: ['webhookUrl'],
  },
  telegram: {
    schema: z.strictObject({
      botToken: token,
      chatId: z
        .string()
        .min(1)
        .max(64)
        .regex(/^(-?\d+|@\w{4,})$/, 'a numeric chat id or @channelname'),
    }),
    secrets: ['botToken'],
    destination: ['chatId'],
  },
  /** PagerDuty Events API v2: the integration's routing key. */
  pagerduty: {
    schema: z.strictObject({
      routingKey: z.string().min(20).max(64).regex(/^\w+$/, 'letters and digits only'),
      severity: z.enum(['critical', 'error', 'warning', 'info']).default('critical'),
    }),
    secrets: ['routingKey'],
    destination: ['routingKey'],
  },
  opsgenie: {
    schema: z.strictObject({ apiKey: token, priority: z.enum(['P1', 'P2', 'P3', 'P4', 'P5']).default('P3') }),
    secrets: ['apiKey'],
    destination: ['apiKey'],
  },
  googlechat: {
    schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
    secrets: ['webhookUrl'],
    destination: ['webhookUrl'],
  },
  /** Mattermost incoming webhook; self-hosted servers may speak plain HTTP on a private network. */
  mattermost: {
    schema: z.strictObject({ webhookUrl: httpUrl(['http', 'https']), channel: z.string().min(1).max(64).optional() }),
    secrets: ['webhookUrl'],
    destination: ['webhookUrl', 'channel'],
  },
  /** ntfy: a topic on the configured server (SVC_NOTIFY_NTFY_URL) or on `serverUrl`. */
  ntfy: {
    schema: z.strictObject({
      topic: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[\w-]+$/, 'letters, digits, - and _'),
      serverUrl: httpUrl(['http', 'https']).optional(),
      accessToken: token.optional(),
    }),
    secrets: ['topic', 'accessToken'],
    destination: ['serverUrl', 'topic'],
  },
  pushover: {
    schema: z.strictObject({ userKey: z.string().regex(/^\w{30}$/, '30 letters and digits'), appToken: z.string().regex(/^\w{30}$/, '30 letters and digits') }),
    secrets: ['userKey', 'appToken'],
    destination: ['userKey'],
  },
} satisfies Record<ChannelType, { schema: z.ZodType; secrets: string[]; destination: string[] }>;

export type ChannelConfig = Record<string, unknown>;

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
  for (const field of CHANNEL_CONFIGS[type].secrets) {
    if (typeof masked[field] === 'string') masked[field] = maskSecret(masked[field] as string);
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
  const settings = CHANNEL_CONFIGS[type];
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
  const secrets = CHANNEL_CONFIGS[type].secrets;
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete merged[field];
    else if (secrets.includes(field) && typeof stored[field] === 'string' && value === maskSecret(stored[field] as string)) continue;
    else merged[field] = value;
  }
  return merged;
}
