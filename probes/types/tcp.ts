import { connectTcp } from '../connect.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { readReply } from '../socket-reply.js';
import { formatHostPort, parseHostPort } from '../target.js';
import { keywordFailure } from '../text-match.js';

/** A reply is complete when the peer pauses this long after its first bytes. */
const QUIET_MS = 250;
const MAX_REPLY_BYTES = 65_536;

/**
 * The TCP probe: connects, sends the payload if any, and looks for the keyword in the reply.
 * Its latency runs to the last byte of the reply (or to the connection, without a keyword): the
 * pause that tells a reply is over says nothing about the server's speed.
 */
export const tcpProbe = defineProbe({
  type: 'tcp',
  async run(check, context) {
    const { config } = check;
    const started = context.now();
    const target = parseHostPort(check.target);
    const { address } = await context.egress.resolve(target.host);
    const socket = await connectTcp(address, target.port, context);
    try {
      // Listen before writing: a server may answer (or greet) at once.
      const reply = config.keyword
        ? readReply(socket, {
            complete: config.keyword.expect === 'present' ? (text) => !keywordFailure(text, config.keyword, 'reply') : undefined,
            quietMs: QUIET_MS,
            maxBytes: MAX_REPLY_BYTES,
            signal: context.signal,
          })
        : undefined;
      // Awaited below; a failed write must not leave its rejection unhandled meanwhile.
      reply?.catch(() => {});
      let lastByteAt: number | undefined;
      socket.on('data', () => (lastByteAt = context.now()));
      if (config.send !== undefined) {
        await new Promise<void>((resolve, reject) => socket.write(config.send!, (error) => (error ? reject(error) : resolve())));
      }
      if (!reply) return { message: `connected to ${formatHostPort(target)}` };
      const problem = keywordFailure(await reply, config.keyword, 'reply');
      if (problem) throw new ProbeFailure(problem);
      return {
        message: `connected to ${formatHostPort(target)}; reply matched`,
        ...(lastByteAt === undefined ? {} : { latencyMs: lastByteAt - started }),
      };
    } finally {
      socket.destroy();
    }
  },
});
