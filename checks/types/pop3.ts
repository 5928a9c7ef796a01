import { mailServerCheckType } from './mail-server.js';

/** A POP3 server's greeting. */
export const pop3Check = mailServerCheckType({
  type: 'pop3',
  title: 'POP3',
  plainPort: 110,
  tlsPort: 995,
  host: 'pop.example.com',
});
