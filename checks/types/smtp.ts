import { mailServerCheckType } from './mail-server.js';

/** An SMTP server's greeting. */
export const smtpCheck = mailServerCheckType({
  type: 'smtp',
  title: 'SMTP',
  plainPort: 25,
  tlsPort: 465,
  host: 'mail.example.com',
});
