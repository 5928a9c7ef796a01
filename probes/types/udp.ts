import { createSocket } from 'node:dgram';
import { onAbort } from '../abort.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { formatHostPort, parseHostPort } from '../target.js';
import { keywordFailure } from '../text-match.js';

/**
 * The UDP probe: sends the payload (an empty datagram when none is set) from a socket connected
 * to the target, and succeeds on the first reply that holds the keyword. A connected socket also
 * hears the ICMP "port unreachable" that a closed port answers, so that is a quick `down`
 * (`recv ECONNREFUSED`) instead of a timeout.
 */
export const udpProbe = defineProbe({
  type: 'udp',
  async run(check, context) {
    const { config } = check;
    const target = parseHostPort(check.target);
    const { address, family } = await context.egress.resolve(target.host);
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    const forget = onAbort(context.signal, () => socket.close());
    try {
      const reply = await new Promise<Buffer>((resolve, reject) => {
        // \`on\`, not \`once\`: every later datagram to a closed port raises another error.
        socket.on('error', reject);
        socket.once('message', resolve);
        socket.connect(target.port, address, () => {
          socket.send(config.send ?? '', (error) => error && reject(error));
        });
      });
      const problem = keywordFailure(reply.toString('utf8'), config.keyword, 'reply');
      if (problem) throw new ProbeFailure(problem);
      return { message: `reply from ${formatHostPort(target)} (${reply.length} bytes)` };
    } finally {
      forget();
      try {
        socket.close();
      } catch {
        // Already closed by the deadline.
      }
    }
  },
});
