import type { Config } from '../../config/config.js';
import type { ChannelConfig } from '../../notifications/channel-types.js';
import type { HttpSender } from '../http-sender.js';
import type { MailSender } from '../mail-sender.js';
import type { NotificationFacts, RenderedMessage } from '../message.js';

/** One message on its way to one channel. */
export interface Delivery {
  /** The outbox row's uid (the test message has its own): receivers may use it to drop repeats. */
  uid: string;
  facts: NotificationFacts;
  message: RenderedMessage;
  /** The channel's stored config, secrets in clear; a personal e-mail has `{addresses: [member]}`. */
  config: ChannelConfig;
  now: Date;
}

/** What deliverers may use: the senders and the services' base URLs. */
export interface DelivererContext {
  http: HttpSender;
  mail: MailSender;
  apiUrls: Config['notify']['apiUrls'];
}

/** Delivers one message to one channel of its type; throws a DeliveryError when it did not arrive. */
export type Deliverer = (delivery: Delivery, context: DelivererContext) => Promise<{ responseCode: number | null }>;

/** The stable key of an incident at services that group alerts (PagerDuty, Opsgenie). */
export const incidentKey = (facts: NotificationFacts): string => `svc-${facts.incident?.uid ?? facts.check?.uid ?? facts.organization.uid}`;

/** A base URL joined with a path, whatever slashes either has. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
