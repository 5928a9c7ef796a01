import { connect as http2Connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import type { Socket } from 'node:net';
import { connectTcp, connectTls } from '../connect.js';
import { networkFailure } from '../connection-errors.js';
import { decodeHealthResponse, encodeHealthRequest, HEALTH_CHECK_PATH } from '../grpc-health.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { formatHostPort } from '../target.js';
import { resolveTarget } from '../target-address.js';
import { tlsConnectionOptions } from '../tls-options.js';
import { keywordFailure } from '../text-match.js';

/** The largest health response accepted (a real one is a few bytes). */
const MAX_RESPONSE = 64 * 1024;

/**
 * gRPC health: one `grpc.health.v1.Health/Check` call, spoken as gRPC over HTTP/2 with
 * `node:http2` on a socket the probe opens itself (to the address the egress policy allowed,
 * TLS with ALPN h2 when `useTls`), so that the deadline tears it down. Up when the status is
 * SERVING (and the keyword matches the status name, when one is set).
 */
export const grpcProbe = defineProbe({
  type: 'grpc',
  async run(check, context) {
    const { config } = check;
    const target = await resolveTarget(check.target, 443, context);
    const authority = formatHostPort({ host: target.host, port: target.port });
    let socket: Socket | undefined;
    let session: ClientHttp2Session | undefined;
    try {
      socket = config.useTls
        ? await connectTls(
            {
              ...tlsConnectionOptions(context.egress, config.ignoreTlsErrors),
              host: target.address,
              port: target.port,
              ALPNProtocols: ['h2'],
              ...(target.servername ? { servername: target.servername } : {}),
            },
            context,
          )
        : await connectTcp(target.address, target.port, context);
      const connected = socket;
      session = http2Connect(`${config.useTls ? 'https' : 'http'}://${authority}`, { createConnection: () => connected });
      const status = await checkHealth(session, authority, config.service, config.metadata, context.timeoutMs);
      const about = config.service ? `service ${config.service}` : 'the server';
      if (status !== 'SERVING') throw new ProbeFailure(`${about} is ${status}`);
      const problem = keywordFailure(status, config.keyword, 'health status');
      if (problem) throw new ProbeFailure(problem);
      return { message: `${about} is SERVING` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw networkFailure(error, target.host, target.port) ?? error;
    } finally {
      session?.destroy();
      socket?.destroy();
    }
  },
});

/** Sends one Check request and resolves with the status name, or fails with the gRPC status. */
function checkHealth(session: ClientHttp2Session, authority: string, service: string, metadata: Record<string, string>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    session.once('error', reject);
    const stream = session.request({
      ...metadata,
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: HEALTH_CHECK_PATH,
      [constants.HTTP2_HEADER_AUTHORITY]: authority,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': `${timeoutMs}m`,
    });
    const message = encodeHealthRequest(service);
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(message.length, 1);
    stream.end(Buffer.concat([prefix, message]));
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('response', (received) => (headers = received));
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE) stream.close(constants.NGHTTP2_CANCEL);
      else chunks.push(chunk);
    });
    // A failed call may come "trailers-only": its grpc-status is in the headers.
    stream.on('trailers', (trailers) => (headers = { ...headers, ...trailers }));
    stream.once('error', reject);
    stream.once('close', () => {
      try {
        resolve(readAnswer(headers, Buffer.concat(chunks), service));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The status name from a finished call's headers, trailers and body. */
function readAnswer(headers: IncomingHttpHeaders, body: Buffer, service: string): string {
  const httpStatus = headers[constants.HTTP2_HEADER_STATUS];
  if (httpStatus === undefined) throw new ProbeFailure('the server closed the call without an answer');
  if (Number(httpStatus) !== 200) throw new ProbeFailure(`not a gRPC server: HTTP status ${httpStatus}`);
  const grpcStatus = Number(headers['grpc-status']);
  if (!Number.isInteger(grpcStatus)) throw new ProbeFailure('not a gRPC answer: no grpc-status');
  if (grpcStatus !== 0) throw statusFailure(grpcStatus, String(headers['grpc-message'] ?? ''), service);
  if (body.length < 5 || body[0] !== 0) throw new ProbeFailure('the health answer is empty or compressed');
  return decodeHealthResponse(body.subarray(5, 5 + body.readUInt32BE(1)));
}

/** gRPC status codes in a plain sentence; the details are the server's own text. */
function statusFailure(code: number, encodedDetails: string, service: string): ProbeFailure {
  let details = encodedDetails;
  try {
    details = decodeURIComponent(encodedDetails);
  } catch {
    // Not percent-encoded after all: shown as it came.
  }
  details = details.split('\n')[0].slice(0, 120);
  switch (code) {
    case 5: // NOT_FOUND: the health service's answer for a service it does not know
      return new ProbeFailure(`the server does not know service ${JSON.stringify(service)}`);
    case 12: // UNIMPLEMENTED
      return new ProbeFailure('the server does not implement grpc.health.v1.Health');
    case 16: // UNAUTHENTICATED
      return new ProbeFailure('the server requires authentication');
    default:
      return new ProbeFailure(`gRPC status ${code}${details ? `: ${details}` : ''}`);
  }
}
