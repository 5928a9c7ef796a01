import { z } from 'zod';
import { hostPortProblem, urlProblem } from './hosts.js';
import { credential } from './credential-fields.js';
import { containsReference, WHOLE_REFERENCE } from './secret-references.js';

// Building blocks of the per-type config schemas. Several source tools express the same idea
// (a keyword, a JSON assertion, a list of accepted status codes) for several kinds of check,
// so each idea has one spelling here and every type that needs it uses that one.

/** Report down when the probe succeeds and up when it fails ("upside-down" mode). */
export const invert = z.boolean().default(false).describe('Upside-down mode: the check is down when the probe succeeds and up when it fails.');

/** Accept invalid, expired or self-signed certificates. */
export const ignoreTlsErrors = z.boolean().default(false).describe('Accept invalid, expired or self-signed TLS certificates.');

/** Connect over TLS from the first byte. */
export const useTls = z.boolean().default(false).describe('Connect over TLS.');

/** A user name; the matching password is a secret reference (`password`). */
export const username = z.string().min(1).max(255).optional().describe('User name to sign in with; the password goes in `password` as a secret reference.');

/**
 * A credential field: only a reference to an organization secret, `{{secrets.NAME}}`, never
 * the credential itself, so the check can be read, exported and shown without revealing it.
 */
export function secretField(description: string) {
  return credential(
    z
      .string()
      .regex(
        WHOLE_REFERENCE,
        'must be a secret reference such as {{secrets.DB_PASSWORD}} (set the value with svc secrets set DB_PASSWORD): credentials are never stored in a check',
      )
      .optional()
      .describe(`${description} A secret reference such as {{secrets.DB_PASSWORD}}; a literal credential is refused.`),
  );
}

/** The password that goes with `username`, as a secret reference. */
export const password = secretField('The password.');

/** An alert threshold in days before something (a certificate, a domain) expires. */
export function expiryDays(description: string) {
  return z.int().min(1).max(365).describe(description);
}

/** Text a response must contain, or must not contain. */
export const keyword = z
  .strictObject({
    value: z.string().min(1).max(1024).describe('The text to look for.'),
    expect: z.enum(['present', 'absent']).default('present').describe('present: the response must contain the text; absent: it must not.'),
    caseSensitive: z.boolean().default(true),
  })
  .describe('Text the response must contain (or must not contain).');

/** The operators a value can be compared with. */
export const COMPARISON_OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'contains'] as const;

// Sources write expected values as JSON numbers or booleans as often as strings; they are
// compared as text (numerically when both sides are numbers), so they are stored as text.
const expectedValue = z
  .union([z.string().max(1024), z.number(), z.boolean()])
  .transform(String)
  .describe('The value to compare with, as text; compared numerically when both sides are numbers.');

/** How a comparison compares: `auto` as the catalog says, `text` as Uptime Kuma's JSON query does. */
export const COMPARISON_MODES = ['auto', 'text'] as const;

/** A comparison of a value extracted by the probe with an expected value. */
export const condition = z.strictObject({
  operator: z.enum(COMPARISON_OPERATORS).default('=='),
  expected: expectedValue,
  compareAs: z
    .enum(COMPARISON_MODES)
    .optional()
    .describe(
      'auto (the default): numerically when both sides are numbers, as text otherwise. text: ==, != and ' +
        'contains compare the text ("2.10" is not "2.1"); <, <=, > and >= compare numbers and fail ' +
        'when a side is not a number.',
    ),
});

/** An assertion on a JSON response: a JSONata expression, an operator and an expected value. */
export const jsonQuery = z
  .strictObject({
    expression: z.string().min(1).max(1024).describe('A JSONata expression evaluated on the response body, e.g. data[0].status or $count(items).'),
    ...condition.shape,
    scalarOnly: z.boolean().optional().describe('Fail when the expression yields an array, an object or null: only a string, number or boolean is compared.'),
  })
  .describe('An assertion on the JSON response body.');

/** Assertions on a JSON response; all of them must hold. */
export const jsonQueries = z.array(jsonQuery).max(20).default([]).describe('Assertions on the JSON response body; all must hold.');

const STATUS_RANGE = /^([1-5]\d\d)(?:-([1-5]\d\d))?$/;

/** One accepted HTTP status: a code (200) or an inclusive range ("200-299"). */
export const statusCode = z.union(
  [
    z.int().min(100).max(599),
    z
      .string()
      .regex(STATUS_RANGE, 'expected a status code such as "204" or a range such as "200-299"')
      .refine((value) => {
        const [, low, high] = STATUS_RANGE.exec(value) ?? [];
        return high === undefined || Number(low) <= Number(high);
      }, 'the range must run from the lower code to the higher one'),
  ],
  { error: 'expected a status code (100-599) or a range such as "200-299"' },
);

/** Accepted HTTP statuses; the check is down on any other. */
export const expectedStatusCodes = z
  .array(statusCode)
  .min(1)
  .max(50)
  .default(['200-299'])
  .describe('Accepted status codes and ranges, e.g. [200, 301, "200-299"]; any other status is a failure.');

// Header names are RFC 9110 tokens. Credentials headers hold a secret reference or nothing:
// a literal credential never lives in a check.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** A header or metadata name. */
export function headerName(pattern: RegExp, patternMessage: string) {
  return z.string().regex(pattern, patternMessage);
}

/**
 * Headers or metadata, name to value: a credential-carrying name (Authorization) is accepted
 * only when its value refers to a secret, e.g. `Bearer {{secrets.API_TOKEN}}`.
 */
export function headerMap(name: z.ZodString, max: number) {
  return (
    z
      // Header and metadata values are credential fields: a value may refer to a secret.
      .record(name, credential(z.string().max(8192)))
      .superRefine((map, ctx) => {
        if (Object.keys(map).length > max) ctx.addIssue({ code: 'custom', message: `at most ${max} entries` });
        for (const [key, value] of Object.entries(map)) {
          if (CREDENTIAL_HEADERS.has(key.toLowerCase()) && !containsReference(value)) {
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message:
                'this header carries credentials: refer to a secret, e.g. "Bearer {{secrets.API_TOKEN}}"; a literal credential is never stored in a check',
            });
          }
        }
      })
  );
}

/** Request headers, name to value. */
export function headers(description: string) {
  return headerMap(headerName(HEADER_NAME, "header names are letters, digits and !#$%&'*+.^_`|~-"), 50).default({}).describe(description);
}

/** A `host[:port]` string naming another server (a resolver, a broker). */
export function hostPort(description: string, portRequired: boolean) {
  return z
    .string()
    .max(300)
    .superRefine((value, ctx) => {
      const problem = hostPortProblem(value, portRequired);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(description);
}

/** An absolute URL with one of `schemes`, without credentials. */
export function url(schemes: readonly string[], description: string) {
  return z
    .string()
    .max(2048)
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, schemes);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(description);
}

/** How a mail protocol connection is secured. */
export const mailSecurity = z
  .enum(['none', 'starttls', 'tls'])
  .default('none')
  .describe('none: plain text; starttls: upgrade the plain connection; tls: TLS from the first byte.');
