import { z } from 'zod';
import type { ChannelType } from '../../../contract/notification-channels.js';
import type { Config } from '../../config/config.js';
import { DeliveryError } from '../delivery-error.js';
import type { HttpSender } from '../http-sender.js';
import type { MailSender } from '../mail-sender.js';
import type { NotificationFacts, RenderedMessage } from '../message.js';

/** A channel's stored settings, before its type's schema has read them. */
export type ChannelConfig = Record<string, unknown>;

/** One message on its way to one channel. */
export interface Delivery<Settings = ChannelConfig> {
  /** The outbox row's uid (the test message has its own): receivers may use it to drop repeats. */
  uid: string;
  facts: NotificationFacts;
  message: RenderedMessage;
  /** The channel's settings, secrets in clear; a personal e-mail has `{addresses: [member]}`. */
  config: Settings;
  now: Date;
}

/** What deliverers may use: the senders and the services' base URLs. */
export interface DelivererContext {
  http: HttpSender;
  mail: MailSender;
  apiUrls: Config['notify']['apiUrls'];
}

type Settings = z.ZodType<Record<string, unknown>, Record<string, unknown>>;
type FieldOf<S extends Settings> = keyof z.output<S> & string;

/** How a channel type is written: its settings' schema, and everything else typed from it. */
export interface ChannelTypeSpec<S extends Settings> {
  type: ChannelType;
  title: string;
  description: string;
  schema: S;
  /** Fields the API only ever shows masked: whoever holds one can post as the organization. */
  secrets: readonly FieldOf<S>[];
  /** Fields that say where it sends: a change of destination needs every stored secret sent again. */
  destination: readonly FieldOf<S>[];
  /** Valid settings to start from (placeholders, never a working secret). */
  sample: z.input<S>;
  /** Delivers one message; throws a DeliveryError when it did not arrive. */
  deliver(delivery: Delivery<z.output<S>>, context: DelivererContext): Promise<{ responseCode: number | null }>;
}

/** A channel type as the daemon uses it: the one definition its API, dashboard, CLI and notifier derive from. */
export interface ChannelTypeDefinition {
  type: ChannelType;
  title: string;
  description: string;
  schema: z.ZodType<Record<string, unknown>>;
  secrets: readonly string[];
  destination: readonly string[];
  sample: Record<string, unknown>;
  /** Reads the stored settings with the type's schema, then delivers. */
  deliver(delivery: Delivery, context: DelivererContext): Promise<{ responseCode: number | null }>;
}

/** Defines a channel type in one place; its deliverer only ever sees settings its schema has read. */
export function defineChannelType<S extends Settings>(spec: ChannelTypeSpec<S>): ChannelTypeDefinition {
  return {
    type: spec.type,
    title: spec.title,
    description: spec.description,
    schema: spec.schema,
    secrets: spec.secrets,
    destination: spec.destination,
    sample: spec.sample,
    async deliver(delivery, context) {
      const settings = spec.schema.safeParse(delivery.config);
      if (!settings.success) {
        throw new DeliveryError(`the channel's settings are not valid for a ${spec.type} channel any more: edit the channel`, null, true);
      }
      return spec.deliver({ ...delivery, config: settings.data }, context);
    },
  };
}

/** An http(s) URL setting. */
export const httpUrl = (schemes: string[]) =>
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

/** A token setting: no spaces. */
export const token = z.string().min(8).max(1024).regex(/^\S+$/, 'must not contain spaces');

/** The stable key of an incident at services that group alerts (PagerDuty, Opsgenie). */
export const incidentKey = (facts: NotificationFacts): string => `svc-${facts.incident?.uid ?? facts.check?.uid ?? facts.organization.uid}`;

/** A base URL joined with a path, whatever slashes either has. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

/** The message's lines after its title: the body most chat services show under a bold title. */
export const bodyLines = (message: RenderedMessage): string => message.text.split('\n').slice(1).join('\n');

/** A JSON object from a response body, or undefined. */
export function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
