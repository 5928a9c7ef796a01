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

/** What a name or title holding a control character is told (400). */
export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters (such as line breaks, tabs or U+0000)';

// In a longer text (a description) line breaks and tabs are fine; any other control character
// (U+0000 and the rest of C0, DEL, C1) is not: they are invalid in the Atom feed's and badges' XML.
const TEXT_CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Whether a longer text holds a control character other than a tab or a line break. */
export const hasTextControlCharacter = (text: string): boolean => TEXT_CONTROL_CHARACTER.test(text);

/** What a longer text holding such a character is told (400). */
export const TEXT_CONTROL_CHARACTER_MESSAGE = 'must not contain control characters other than tabs and line breaks (such as U+0000)';
