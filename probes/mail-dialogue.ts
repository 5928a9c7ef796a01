import type { Socket } from 'node:net';
import { ProbeFailure } from './probe.js';
import { smtpStartTls } from './smtp-starttls.js';
import { readReply } from './socket-reply.js';

/** How one mail protocol greets, upgrades to TLS and says goodbye. */
export interface MailDialogue {
  /** The protocol's name, for messages. */
  name: string;
  /** Reads the greeting and returns its first line; throws when the server turns the client away. */
  greeting(socket: Socket, signal: AbortSignal): Promise<string>;
  /** Reads the greeting and asks for TLS; resolves once the server agreed to the handshake. */
  startTls(socket: Socket, signal: AbortSignal): Promise<string>;
  /** Proves the (possibly upgraded) session answers a command, then ends it politely. */
  goodbye(socket: Socket, signal: AbortSignal): Promise<void>;
}

const LINE = /\r?\n$/;
const SMTP_FINAL_LINE = /(?:^|\n)\d{3} [^\n]*\n$/;

/** Reads one reply and returns it; `complete` tells when the reply has ended. */
function reply(socket: Socket, signal: AbortSignal, complete: (text: string) => boolean): Promise<string> {
  return readReply(socket, { complete, quietMs: 2_000, maxBytes: 16_384, signal });
}

function firstLine(text: string): string {
  return (text.split(/\r?\n/)[0] ?? '').trim().slice(0, 120);
}

function refused(what: string, text: string): ProbeFailure {
  return new ProbeFailure(`${what}: ${firstLine(text) || 'no answer'}`);
}

/** The SMTP dialogue (RFC 5321): 220 greeting, EHLO, STARTTLS (RFC 3207), QUIT. */
export const SMTP: MailDialogue = {
  name: 'SMTP',
  async greeting(socket, signal) {
    const text = await reply(socket, signal, (seen) => SMTP_FINAL_LINE.test(seen));
    if (!text.startsWith('220')) throw refused('the SMTP server refused the session', text);
    return firstLine(text);
  },
  async startTls(socket, signal) {
    await smtpStartTls(socket, signal);
    return 'STARTTLS accepted';
  },
  async goodbye(socket, signal) {
    socket.write('EHLO svc-monitor\r\n');
    const ehlo = await reply(socket, signal, (seen) => SMTP_FINAL_LINE.test(seen));
    if (!ehlo.startsWith('250')) throw refused('EHLO refused', ehlo);
    socket.end('QUIT\r\n');
  },
};

/** The IMAP dialogue (RFC 9051): untagged OK (or PREAUTH) greeting, STARTTLS, NOOP, LOGOUT. */
export const IMAP: MailDialogue = {
  name: 'IMAP',
  async greeting(socket, signal) {
    const text = await reply(socket, signal, (seen) => LINE.test(seen));
    if (!/^\* (OK|PREAUTH)\b/i.test(text)) throw refused('the IMAP server refused the session', text);
    return firstLine(text);
  },
  async startTls(socket, signal) {
    const greeting = await IMAP.greeting(socket, signal);
    socket.write('s1 STARTTLS\r\n');
    const text = await reply(socket, signal, (seen) => /(?:^|\n)s1 [^\n]*\n$/.test(seen));
    if (!/(?:^|\n)s1 OK\b/i.test(text)) throw refused('STARTTLS refused', text.slice(text.lastIndexOf('s1 ')));
    return greeting;
  },
  async goodbye(socket, signal) {
    socket.write('s2 NOOP\r\n');
    const text = await reply(socket, signal, (seen) => /(?:^|\n)s2 [^\n]*\n$/.test(seen));
    if (!/(?:^|\n)s2 OK\b/i.test(text)) throw refused('NOOP refused', text.slice(text.lastIndexOf('s2 ')));
    socket.end('s3 LOGOUT\r\n');
  },
};

/** The POP3 dialogue (RFC 1939): +OK greeting, STLS (RFC 2595), CAPA, QUIT. */
export const POP3: MailDialogue = {
  name: 'POP3',
  async greeting(socket, signal) {
    const text = await reply(socket, signal, (seen) => LINE.test(seen));
    if (!text.startsWith('+OK')) throw refused('the POP3 server refused the session', text);
    return firstLine(text);
  },
  async startTls(socket, signal) {
    const greeting = await POP3.greeting(socket, signal);
    socket.write('STLS\r\n');
    const text = await reply(socket, signal, (seen) => LINE.test(seen));
    if (!text.startsWith('+OK')) throw refused('STLS refused', text);
    return greeting;
  },
  async goodbye(socket, signal) {
    // CAPA is answered in every state; its list ends with a lone dot.
    socket.write('CAPA\r\n');
    const text = await reply(socket, signal, (seen) => (seen.startsWith('-') ? LINE.test(seen) : /(?:^|\n)\.\r?\n$/.test(seen)));
    if (!text.startsWith('+OK')) throw refused('CAPA refused', text);
    socket.end('QUIT\r\n');
  },
};
