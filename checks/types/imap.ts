import { mailServerCheckType } from './mail-server.js';

/** An IMAP server's greeting. */
export const imapCheck = mailServerCheckType({
  type: 'imap',
  title: 'IMAP',
  plainPort: 143,
  tlsPort: 993,
  host: 'imap.example.com',
});
