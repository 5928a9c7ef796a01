import type { Socket } from 'node:net';
import { ProbeFailure } from './probe.js';
import { readReply } from './socket-reply.js';

/** An SMTP reply is complete at its last line: a code followed by a space. */
const FINAL_LINE = /(?:^|\n)\d{3} [^\n]*\n$/;

async function expectReply(socket: Socket, code: string, what: string, signal: AbortSignal): Promise<void> {
  const reply = await readReply(socket, { complete: (text) => FINAL_LINE.test(text), quietMs: 2_000, maxBytes: 16_384, signal });
  const last = reply.trimEnd().split('\n').pop() ?? '';
  if (!last.startsWith(`${code} `)) throw new ProbeFailure(`${what}: expected ${code}, got ${last.slice(0, 80).trim() || 'nothing'}`);
}

/**
 * Upgrades a plain SMTP connection for TLS: reads the greeting, says EHLO and STARTTLS, and
 * returns once the server agreed, ready for the TLS handshake on the same socket.
 */
export async function smtpStartTls(socket: Socket, signal: AbortSignal): Promise<void> {
  await expectReply(socket, '220', 'SMTP greeting', signal);
  socket.write('EHLO svc-monitor\r\n');
  await expectReply(socket, '250', 'EHLO', signal);
  socket.write('STARTTLS\r\n');
  await expectReply(socket, '220', 'STARTTLS', signal);
}
