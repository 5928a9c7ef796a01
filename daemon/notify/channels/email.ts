import { z } from 'zod';
import { defineChannelType } from './channel-type.js';

/** E-mail: one plain-text message to the channel's addresses (or the member, for personal e-mail). */
export const emailChannel = defineChannelType({
  type: 'email',
  title: 'E-mail',
  description: "A plain-text mail to up to 50 addresses, sent through the daemon's SMTP server (SVC_SMTP_URL).",
  schema: z.strictObject({ addresses: z.array(z.email()).min(1).max(50) }),
  secrets: [],
  destination: ['addresses'],
  sample: { addresses: ['oncall@example.com'] },
  deliver: async ({ config, message }, { mail }) => mail.send({ to: config.addresses, subject: `[svc] ${message.title}`, text: message.text }),
});
