import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { headers, ignoreTlsErrors, invert, keyword } from '../fields.js';
import { urlTarget } from '../targets.js';

/** A WebSocket upgrade and, optionally, a message exchange. */
export const websocketCheck = defineCheckType({
  type: 'websocket',
  title: 'WebSocket',
  description: 'Opens a WebSocket connection; optionally sends a message and looks for a keyword in the first reply.',
  target: urlTarget(['ws', 'wss'], 'The WebSocket URL.', 'wss://example.com/socket'),
  config: z.strictObject({
    headers: headers('Headers of the upgrade request. An Authorization header must refer to a secret.'),
    subprotocols: z
      .array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'expected a subprotocol token'))
      .max(10)
      .default([])
      .describe('Subprotocols offered in Sec-WebSocket-Protocol.'),
    message: z.string().max(65_536).optional().describe('A text message sent once connected.'),
    keyword: keyword.optional(),
    expectedCloseCodes: z
      .array(
        z.union([
          z.int().min(1000).max(4999),
          z.string().regex(/^[1-4]\d{3}(?:-[1-4]\d{3})?$/, 'expected a close code such as 1000 or a range such as "1000-1999"'),
        ]),
      )
      .min(1)
      .max(50)
      .optional()
      .describe(
        "When set, the probe closes the connection (code 1000) once done and the server's closing code must " +
          'be one of these codes or ranges, as Uptime Kuma checks it; without it the close is not looked at.',
      ),
    ignoreSecWebSocketAccept: z.boolean().default(false).describe('Tolerate a wrong Sec-WebSocket-Accept header (some proxies rewrite it).'),
    ignoreTlsErrors,
    invert,
  }),
  sample: {
    name: 'Live updates socket',
    target: 'wss://stream.example.com/live',
    config: { message: 'ping', keyword: { value: 'pong' } },
  },
});
