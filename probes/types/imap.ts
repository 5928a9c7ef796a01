import { IMAP } from '../mail-dialogue.js';
import { mailProbe } from '../mail-probe.js';

/** IMAP: greeting, optional STARTTLS or TLS, one command, goodbye (see probes/mail-probe.ts). */
export const imapProbe = mailProbe('imap', IMAP, { plain: 143, tls: 993 });
