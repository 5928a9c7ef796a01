import { z } from 'zod';

// The kinds of notification channel and their settings. Webhook URLs and tokens are secrets:
// whoever holds one can post as the organization, so they are stored for delivery but the API
// only ever shows them masked.

export const CHANNEL_TYPES = ['email', 'webhook', 'slack', 'discord'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const httpUrl = (schemes: string[]) =>
  z
    .string()
    .max(2048)
    .refine((value) => {
      try {
        return schemes.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    }, `must be an ${schemes.join(' or ')} URL`);

const token = z.string().min(8).max(1024).regex(/^\S+$/, 'must not contain spaces');

/** Each type's config schema and which of its fields are secrets. */
export const CHANNEL_CONFIGS = {
  email: {
    schema: z.strictObject({ addresses: z.array(z.email()).min(1).max(50) }),
    secrets: [] as string[],
  },
  webhook: {
    schema: z.strictObject({
      url: httpUrl(['http', 'https']),
      method: z.enum(['POST', 'PUT']).default('POST'),
      bearerToken: token.optional(),
    }),
    secrets: ['url', 'bearerToken'],
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
  },
  discord: {
    schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
    secrets: ['webhookUrl'],
  },
} satisfies Record<ChannelType, { schema: z.ZodType; secrets: string[] }>;

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
