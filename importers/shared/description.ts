import { TEXT_BOUNDS } from '../../checks/index.js';
import type { ItemScope } from './item-scope.js';
import { cutCodePoints } from './values.js';

// The control characters a description may not hold: C0 but tab and line breaks, DEL and C1
// (checks/check-fields.ts).
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]+/g;

/**
 * A description the catalog accepts, made from the source's free text: control characters but
 * tabs and line breaks written as a space, and cut to the catalog's length in code points. Each
 * change is a `VALUE_ADJUSTED` warning on `field`, so that the check is imported rather than
 * skipped over its note.
 */
export function importDescription(text: string | undefined, scope: ItemScope, field: string): string | undefined {
  if (text === undefined) return undefined;
  const cleaned = text.replace(CONTROL_CHARACTERS, ' ');
  if (cleaned !== text) scope.warn('VALUE_ADJUSTED', 'control characters in the description were written as spaces', field);
  const cut = cutCodePoints(cleaned, TEXT_BOUNDS.description);
  if (cut !== cleaned) scope.warn('VALUE_ADJUSTED', `the description was cut to ${TEXT_BOUNDS.description} characters`, field);
  return cut;
}
