import type { Transporter } from 'nodemailer';

/** A transport to `SVC_SMTP_URL`, made with the first mail; nodemailer is loaded then, not at start. */
export interface SmtpTransport {
  opened(): Promise<Transporter>;
  close(): void;
}

/** The one SMTP transport of a mailer or a mail sender: loaded and made once, on first use. */
export function smtpTransport(smtpUrl: string): SmtpTransport {
  let transport: Promise<Transporter> | undefined;
  return {
    opened: () => (transport ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(smtpUrl))),
    close: () => void transport?.then((opened) => opened.close()).catch(() => {}),
  };
}
