import type { Deliverer } from './deliverer.js';

/** E-mail: one plain-text message to the channel's addresses (or the member, for personal e-mail). */
export const deliverEmail: Deliverer = async ({ config, message }, { mail }) =>
  mail.send({ to: config.addresses as string[], subject: `[svc] ${message.title}`, text: message.text });
