import { smtpTransport } from '../mail/smtp-transport.js';
import { withoutControlCharacters } from '../plain-text.js';
import { DeliveryError } from './delivery-error.js';

/** Sends one notification e-mail, or throws a DeliveryError (unlike the notice mailer, which only logs). */
export interface MailSender {
  send(mail: { to: string[]; subject: string; text: string; headers?: Record<string, string> }): Promise<{ responseCode: number | null }>;
  close(): void;
}

/** A MailSender over `SVC_SMTP_URL`; nodemailer is loaded on first use. Without SMTP every send fails permanently. */
export function createMailSender(smtpUrl: string | undefined, from: string): MailSender {
  const transport = smtpUrl ? smtpTransport(smtpUrl) : undefined;
  return {
    async send(mail) {
      if (!transport) throw new DeliveryError('no SMTP server is configured (SVC_SMTP_URL)', null, true);
      try {
        const info = await (await transport.opened()).sendMail({
          from,
          to: mail.to,
          subject: withoutControlCharacters(mail.subject),
          text: mail.text,
          ...(mail.headers ? { headers: mail.headers } : {}),
        });
        const code = /^(\d{3})/.exec(String(info.response ?? ''));
        return { responseCode: code ? Number(code[1]) : null };
      } catch (error) {
        const { responseCode, code } = error as { responseCode?: number; code?: string };
        const permanent = responseCode !== undefined && responseCode >= 500;
        throw new DeliveryError(`SMTP delivery failed: ${responseCode ?? code ?? 'error'}`, responseCode ?? null, permanent);
      }
    },
    close: () => transport?.close(),
  };
}
