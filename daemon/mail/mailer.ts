import type { Logger } from '../log.js';
import { withoutControlCharacters } from '../plain-text.js';
import { smtpTransport } from './smtp-transport.js';

/** A mail to send: plain text, one recipient. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends notices. `enabled` is false when no SMTP server is configured; sending then does nothing. */
export interface Mailer {
  readonly enabled: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * A mailer over `SVC_SMTP_URL`. Mail is a notice, so a failed delivery is logged (without the
 * message body, which may hold a link that works as a credential) and never fails the request.
 */
export function createMailer(smtpUrl: string | undefined, from: string, logger: Logger): Mailer {
  if (!smtpUrl) {
    return { enabled: false, send: async () => {}, close: () => {} };
  }
  const transport = smtpTransport(smtpUrl);
  return {
    enabled: true,
    async send(mail) {
      try {
        await (await transport.opened()).sendMail({ from, to: mail.to, subject: withoutControlCharacters(mail.subject), text: mail.text });
      } catch (error) {
        logger.warn({ subject: mail.subject, err: (error as Error).message }, 'mail delivery failed');
      }
    },
    close: transport.close,
  };
}
