import type { PeerCertificate, TLSSocket } from 'node:tls';
import { request, type Dispatcher } from 'undici';
import { statusCodeMatcher } from '../../checks/status-codes.js';
import { assertCertificateTime } from '../certificate.js';
import { runDispatcher } from '../http-dispatcher.js';
import { assertJsonQueries, parseJsonBody } from '../json-queries.js';
import { defineProbe, ProbeFailure, type ProbeSuccess } from '../probe.js';
import { requestHeaders } from '../request-headers.js';
import { keywordFailure } from '../text-match.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The most of a body read for keyword and JSON assertions; the rest is not downloaded. */
const MAX_BODY_BYTES = 1_048_576;

/** Reads at most MAX_BODY_BYTES of a body as text. */
async function readBody(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, Math.min(size, MAX_BODY_BYTES)).toString('utf8');
}

/**
 * The HTTP(S) probe: sends the request (following redirects itself, so that every hop goes
 * through the egress policy), then checks the status, the keyword, the JSON assertions and the
 * certificate's expiry.
 */
export const httpProbe = defineProbe({
  type: 'http',
  async run(check, context): Promise<ProbeSuccess> {
    const { config } = check;
    const password = (config as { basicAuthPassword?: string }).basicAuthPassword;
    const headers = requestHeaders(config.headers);
    if (config.basicAuthUser !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${config.basicAuthUser}:${password ?? ''}`).toString('base64')}`;
    }

    let certificate: PeerCertificate | undefined;
    const watchCertificate = config.certificateExpiryDays !== undefined && check.target.startsWith('https:');
    const dispatcher = runDispatcher(
      context.egress,
      config.ignoreTlsErrors,
      watchCertificate
        ? (socket) => {
            const tls = socket as TLSSocket;
            certificate = typeof tls.getPeerCertificate === 'function' ? tls.getPeerCertificate() : undefined;
          }
        : undefined,
    );

    try {
      let url = new URL(check.target);
      let method: string = config.method;
      let body = method === 'GET' || method === 'HEAD' ? undefined : config.body;
      for (let redirects = 0; ; redirects++) {
        const response = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher,
          signal: context.signal,
        });
        const location = response.headers.location;
        if (config.followRedirects && REDIRECTS.has(response.statusCode) && typeof location === 'string') {
          await response.body.dump();
          if (redirects >= config.maxRedirects) throw new ProbeFailure(`more than ${config.maxRedirects} redirects`);
          const next = new URL(location, url);
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw new ProbeFailure(`redirect to a ${next.protocol.slice(0, -1)} URL`);
          }
          if (next.origin !== url.origin) {
            // Credentials go to the origin they were meant for only; the certificate that counts
            // is the one of the origin that gives the final answer.
            delete headers.authorization;
            certificate = undefined;
          }
          if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
            method = method === 'HEAD' ? 'HEAD' : 'GET';
            body = undefined;
          }
          url = next;
          continue;
        }
        return await assertResponse(response);
      }
    } finally {
      void dispatcher.destroy().catch(() => {});
    }

    async function assertResponse(response: Dispatcher.ResponseData): Promise<ProbeSuccess> {
      const status = response.statusCode;
      if (!statusCodeMatcher(config.expectedStatusCodes)(status)) {
        await response.body.dump().catch(() => {});
        throw new ProbeFailure(`expected status ${config.expectedStatusCodes.join(', ')}, got ${status}`);
      }
      const needsBody = config.keyword !== undefined || config.jsonQueries.length > 0;
      if (needsBody) {
        const text = await readBody(response.body);
        const keywordProblem = keywordFailure(text, config.keyword, 'body');
        if (keywordProblem) throw new ProbeFailure(keywordProblem);
        if (config.jsonQueries.length > 0) await assertJsonQueries(parseJsonBody(text), config.jsonQueries, context);
      } else {
        await response.body.dump();
      }
      const notes = [`status ${status}`];
      if (watchCertificate) {
        if (!certificate?.valid_to) {
          notes.push('no certificate (the final response came over plain HTTP)');
        } else {
          const days = assertCertificateTime(certificate, config.certificateExpiryDays!, context.now());
          notes.push(`certificate valid for ${days} more days`);
        }
      }
      if (config.domainExpiryDays !== undefined) notes.push('domain expiry is checked by domain checks, not here');
      return { message: notes.join('; ') };
    }
  },
});
