import { z } from 'zod';

// C0 and C1 controls (CR, LF, TAB, ESC, DEL, ...) and the Unicode line and paragraph separators:
// names are written into mail headers and bodies, log lines and terminals, where any of them can
// start a new line or rewrite what the reader sees.
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]+/gu;

/** Whether `text` holds a control character (see above). */
export const hasControlCharacter = (text: string): boolean => CONTROL_CHARACTER.test(text);

/**
 * A name typed by a person (organization or display name): trimmed, up to `max` characters (and
 * at least one unless `allowEmpty`), and refused (400) when it holds a control character rather
 * than silently changed.
 */
export const plainNameField = (max = 200, { allowEmpty = false } = {}) =>
  z
    .string()
    .trim()
    .min(allowEmpty ? 0 : 1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !hasControlCharacter(text), 'must not contain control characters (such as line breaks or tabs)');

/**
 * A name that came from elsewhere (an identity provider's profile, a workspace name), where
 * refusing is no option: each run of control characters becomes one space.
 */
export const withoutControlCharacters = (text: string): string => text.replace(CONTROL_CHARACTERS, ' ');
