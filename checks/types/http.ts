import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { expectedStatusCodes, expiryDays, headers, ignoreTlsErrors, invert, jsonQueries, keyword, secretField, username } from '../fields.js';
import { urlTarget } from '../targets.js';

/** The HTTP methods a check may send. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** An HTTP(S) request whose status, body and timing are checked. */
export const httpCheck = defineCheckType({
  type: 'http',
  title: 'HTTP(S)',
  description:
    'Sends an HTTP request and checks the status code, and optionally a keyword in the body, ' +
    'assertions on a JSON body, the TLS certificate expiry and the domain registration expiry.',
  target: urlTarget(['http', 'https'], 'The URL to request.', 'https://example.com/health'),
  config: z.strictObject({
    method: z.enum(HTTP_METHODS).default('GET'),
    headers: headers('Request headers. An Authorization header must refer to a secret, e.g. "Bearer {{secrets.API_TOKEN}}"; a literal credential is refused.'),
    body: z.string().max(65_536).optional().describe('The request body, sent as is (with every method but HEAD).'),
    expectedStatusCodes,
    keyword: keyword.optional(),
    keywordSearch: z
      .enum(['raw', 'reserialised-json'])
      .optional()
      .describe(
        'raw (the default): the keyword is looked for in the body as received. reserialised-json: a body ' +
          'that parses as JSON is searched as compact JSON written anew (escapes decoded, no spaces between ' +
          'tokens), as Uptime Kuma searches it; any other body as received.',
      ),
    jsonQueries,
    nonJsonBody: z
      .enum(['fail', 'text'])
      .optional()
      .describe(
        'fail (the default): JSON assertions fail on a body that is not JSON. text: the expressions are ' +
          'evaluated on the body as one string, as Uptime Kuma does.',
      ),
    basicAuthUser: username.describe('User name for HTTP basic authentication.'),
    basicAuthPassword: secretField('Password for HTTP basic authentication (with basicAuthUser).'),
    followRedirects: z.boolean().default(true),
    maxRedirects: z.int().min(0).max(30).default(10).describe('Redirects followed before giving up.'),
    ignoreTlsErrors,
    certificateExpiryDays: expiryDays('Fail when the TLS certificate expires within this many days (https targets only).').optional(),
    domainExpiryDays: expiryDays("Fail when the registration of the target's domain expires within this many days.").optional(),
    invert,
  }),
  sample: {
    name: 'API health',
    target: 'https://api.example.com/health',
    config: {
      method: 'GET',
      headers: { Accept: 'application/json' },
      expectedStatusCodes: ['200-299'],
      jsonQueries: [{ expression: 'status', operator: '==', expected: 'ok' }],
      certificateExpiryDays: 14,
    },
    labels: { team: 'platform' },
  },
});
