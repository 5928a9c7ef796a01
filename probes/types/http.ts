import type { PeerCertificate, TLSSocket } from 'node:tls';
import { request, type Dispatcher } from 'undici';
import { statusCodeMatcher } from '../../checks/status-codes.js';
import { assertCertificateTime } from '../certificate.js';
import { decodedBody, MAX_WHOLE_BODY_BYTES, readWholeBody, streamContains } from '../http-body.js';
import { RUN_OVER, RunDispatcher } from '../http-dispatcher.js';
import { requestStatus, type StatusAnswer } from '../http-status-request.js';
import { assertJsonQueries, parseJsonBody } from '../json-queries.js';
import { defineProbe, ProbeFailure, type ProbeSuccess } from '../probe.js';
import { crossOriginHeaders, holdsSecret, requestHeaders } from '../request-headers.js';
import { keywordFailure, keywordVerdict } from '../text-match.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** An answer: with its body when the check's assertions read it (see `readsBody`), dropped already otherwise. */
type Answer = StatusAnswer & { body?: Dispatcher.ResponseData['body'] };

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
    let headers = requestHeaders(config.headers);
    if (config.basicAuthUser !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${config.basicAuthUser}:${password ?? ''}`).toString('base64')}`;
    }

    let certificate: PeerCertificate | undefined;
    const watchCertificate = config.certificateExpiryDays !== undefined && check.target.startsWith('https:');
    const dispatcher = new RunDispatcher(
      context.egress,
      config.ignoreTlsErrors,
      watchCertificate
        ? (socket) => {
            const tls = socket as TLSSocket;
            certificate = typeof tls.getPeerCertificate === 'function' ? tls.getPeerCertificate() : undefined;
          }
        : undefined,
    );

    // Only a keyword or JSON assertions read the body: without them an answer is its status and
    // headers, and its body is dropped as it comes (http-status-request.ts).
    const readsBody = config.keyword !== undefined || config.jsonQueries.length > 0;
    try {
      let url = new URL(check.target);
      let method: string = config.method;
      let body = method === 'HEAD' ? undefined : config.body;
      for (let redirects = 0; ; redirects++) {
        const exchange = { method: method as Dispatcher.HttpMethod, headers, body, signal: context.signal };
        const response: Answer = readsBody ? await request(url, { ...exchange, dispatcher }) : await requestStatus(dispatcher, url, exchange);
        const location = response.headers.location;
        if (config.followRedirects && REDIRECTS.has(response.statusCode) && typeof location === 'string') {
          await response.body?.dump();
          if (redirects >= config.maxRedirects) throw new ProbeFailure(`more than ${config.maxRedirects} redirects`);
          const next = new URL(location, url);
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw new ProbeFailure(`redirect to a ${next.protocol.slice(0, -1)} URL`);
          }
          if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
            method = method === 'HEAD' ? 'HEAD' : 'GET';
            body = undefined;
          }
          if (next.origin !== url.origin) {
            // Credentials go to the origin they were meant for only (scheme, host and port): the
            // credential headers and every header or body that holds a secret of the check stay
            // behind. The certificate that counts is the one of the origin that gives the final answer.
            headers = crossOriginHeaders(headers, context.secretValues ?? []);
            if (typeof body === 'string' && holdsSecret(body, context.secretValues ?? [])) {
              throw new ProbeFailure(`redirect to another origin (${next.origin}) would send a request body that holds a secret`);
            }
            certificate = undefined;
          }
          url = next;
          continue;
        }
        return await assertResponse(response, url);
      }
    } finally {
      void dispatcher.destroy(RUN_OVER).catch(() => {});
    }

    async function assertResponse(response: Answer, finalUrl: URL): Promise<ProbeSuccess> {
      const status = response.statusCode;
      if (!statusCodeMatcher(config.expectedStatusCodes)(status)) {
        await response.body?.dump().catch(() => {});
        throw new ProbeFailure(`expected status ${config.expectedStatusCodes.join(', ')}, got ${status}`);
      }
      if (response.body) await assertBody(response.body, response.headers['content-encoding']);
      const notes = [`status ${status}`];
      if (watchCertificate) {
        if (!certificate?.valid_to) {
          if (finalUrl.protocol === 'https:') throw new ProbeFailure('the TLS connection showed no certificate to check');
          notes.push('no certificate (the final response came over plain HTTP)');
        } else {
          const days = assertCertificateTime(certificate, config.certificateExpiryDays!, context.now());
          notes.push(`certificate valid for ${days} more days`);
        }
      }
      if (config.domainExpiryDays !== undefined) notes.push('domain expiry is checked by domain checks, not here');
      return { message: notes.join('; ') };
    }

    // The keyword and the JSON assertions, on the decoded body. A keyword in the raw text is
    // searched as the body streams in, over all of it; JSON is read whole, up to 10 MiB.
    async function assertBody(body: Dispatcher.ResponseData['body'], contentEncoding: string | string[] | undefined): Promise<void> {
      const { keyword, jsonQueries } = config;
      const wholeJson = jsonQueries.length > 0 || (keyword !== undefined && config.keywordSearch === 'reserialised-json');
      const chunks = decodedBody(body, contentEncoding);
      if (!wholeJson) {
        const found = await streamContains(chunks, body, keyword!.value, keyword!.caseSensitive);
        const problem = keywordVerdict(found, keyword!, 'body');
        if (problem) throw new ProbeFailure(problem);
        return;
      }
      const { text, cut } = await readWholeBody(chunks, body);
      const tooLarge = `the body is larger than ${MAX_WHOLE_BODY_BYTES / 1_048_576} MiB, the most read for JSON`;
      if (keyword !== undefined) {
        const searched = config.keywordSearch === 'reserialised-json' && !cut ? reserialisedJson(text) : text;
        const problem = keywordFailure(searched, keyword, cut ? `first ${MAX_WHOLE_BODY_BYTES / 1_048_576} MiB of the body` : 'body');
        if (problem) throw new ProbeFailure(problem);
      }
      if (jsonQueries.length > 0) {
        if (cut) throw new ProbeFailure(tooLarge);
        await assertJsonQueries(jsonOrText(text), jsonQueries, context);
      }
    }

    /** The body for JSON assertions: parsed, or under `nonJsonBody: text` the text itself when it is not JSON. */
    function jsonOrText(text: string): unknown {
      if (config.nonJsonBody !== 'text') return parseJsonBody(text);
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    }
  },
});

/**
 * A body that parses as JSON written anew as compact JSON (a JSON string: its decoded text);
 * any other body as it is. This is the text `keywordSearch: reserialised-json` searches.
 */
function reserialisedJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
