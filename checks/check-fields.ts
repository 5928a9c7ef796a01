import { z } from 'zod';
import { SLUG_PATTERN } from './slug.js';

// The fields every check has, whatever its type. Each is validated on its own so that one
// bad field never hides the problems of another; the few rules that span fields live in
// validate-check.ts.

/** Bounds of `intervalSeconds`: ten seconds to one day. */
export const INTERVAL_BOUNDS = { min: 10, max: 86_400, default: 60 } as const;

/** The default thresholds: a 10 s timeout, down after 2 failures in a row, up after 1 success. */
export const DEFAULT_THRESHOLDS = { timeoutMs: 10_000, failuresBeforeDown: 2, successesBeforeUp: 1 } as const;

/** At most this many labels per check. */
export const MAX_LABELS = 64;

/** When a check is slow, failing or recovered. */
export const thresholdsSchema = z
  .strictObject({
    timeoutMs: z.int().min(100).max(300_000).default(DEFAULT_THRESHOLDS.timeoutMs).describe('A probe that takes longer fails. At most the interval.'),
    degradedResponseMs: z.int().min(1).max(300_000).optional().describe('A successful probe slower than this marks the check degraded. Less than timeoutMs.'),
    failuresBeforeDown: z.int().min(1).max(100).default(DEFAULT_THRESHOLDS.failuresBeforeDown).describe('Consecutive failures before the check is down.'),
    successesBeforeUp: z.int().min(1).max(100).default(DEFAULT_THRESHOLDS.successesBeforeUp).describe('Consecutive successes before a down check is up again.'),
  })
  .prefault({});

// Label keys may carry the free text of the source tools' tags ("Production DB"), but never
// "=" or "," because the list filter is written `?label=key=value`.
export const LABEL_KEY = /^[^\s=,\p{Cc}](?:[^=,\p{Cc}]{0,62}[^\s=,\p{Cc}])?$/u;
export const LABEL_VALUE = /^[^\p{Cc}]{0,256}$/u;
// Names are shown in mails, feeds and badges (XML): no control character at all; a description
// may hold tabs and line breaks, nothing else of C0, DEL or C1.
export const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\u2028\u2029]*$/u;
export const NO_TEXT_CONTROL_CHARACTERS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/**
 * The longest name, target and description, in code points, as the schemas count them (a text of
 * no more UTF-16 units than that, as `String.length` counts, is within it too).
 */
export const TEXT_BOUNDS = { name: 200, target: 2048, description: 2000 } as const;

/** Free-form labels: at most 64, keys 1-64 characters without "=" or ",", values up to 256. */
export const labelsSchema = z
  .record(
    z.string().regex(LABEL_KEY, 'label keys are 1 to 64 characters, without "=", "," or surrounding spaces'),
    z.string().regex(LABEL_VALUE, 'label values are at most 256 characters, without control characters'),
  )
  .refine((labels) => Object.keys(labels).length <= MAX_LABELS, `at most ${MAX_LABELS} labels`)
  .prefault({})
  .describe('Free-form labels for filtering and grouping, e.g. {"team": "payments"}.');

/** The schema of each common field, in the order a normalised check lists them. */
export const commonFieldSchemas = {
  slug: z
    .string()
    .regex(SLUG_PATTERN, 'a slug is 1 to 63 lowercase letters, digits and dashes, starting with a letter or digit')
    .optional()
    .describe('Identifies the check within its organization; derived from the name when absent.'),
  name: z
    .string()
    .trim()
    .min(1)
    .max(TEXT_BOUNDS.name)
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters (such as line breaks, tabs or U+0000)')
    .describe('A human name; surrounding spaces are removed.'),
  type: z.string().min(1).describe('The check type; see /check-types.'),
  enabled: z.boolean().default(true).describe('Disabled checks are kept but not run.'),
  intervalSeconds: z
    .int()
    .min(INTERVAL_BOUNDS.min)
    .max(INTERVAL_BOUNDS.max)
    .default(INTERVAL_BOUNDS.default)
    .describe('Seconds between two probes, 10 to 86400.'),
  target: z.string().max(TEXT_BOUNDS.target).optional().describe('What is watched; its meaning depends on the type.'),
  config: z.unknown().describe('Type-specific settings; see the type in /check-types.'),
  thresholds: thresholdsSchema,
  labels: labelsSchema,
  description: z
    .string()
    .max(TEXT_BOUNDS.description)
    .regex(NO_TEXT_CONTROL_CHARACTERS, 'must not contain control characters other than tabs and line breaks (such as U+0000)')
    .optional(),
} as const;

/** The common fields of a normalised check, as their schemas give them back. */
export type CommonFields = { [K in keyof typeof commonFieldSchemas]: z.output<(typeof commonFieldSchemas)[K]> };

/** Thresholds of a normalised check. */
export type Thresholds = z.output<typeof thresholdsSchema>;

/** Thresholds as accepted on input: every field may be left to its default. */
export type ThresholdsInput = z.input<typeof thresholdsSchema>;
