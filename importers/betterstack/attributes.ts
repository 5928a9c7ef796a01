import { flagValue, numberValue, textValue } from '../converter.js';

// Readers for the attributes of one resource. The API is consistent, but a saved copy may
// have been edited by hand, so each reader accepts what the shared value readers accept.

/** The attributes of one monitor or heartbeat. */
export type Attributes = Readonly<Record<string, unknown>>;

/** An attribute as text; undefined when absent, null or blank. */
export function text(attributes: Attributes, key: string): string | undefined {
  const value = attributes[key];
  if (typeof value === 'boolean') return undefined;
  const result = textValue(value);
  return result === undefined || result.trim() === '' ? undefined : result;
}

/** An attribute as a finite number (numeric strings too). */
export function num(attributes: Attributes, key: string): number | undefined {
  return numberValue(attributes[key]);
}

/** An attribute as a boolean. */
export function flag(attributes: Attributes, key: string): boolean | undefined {
  return flagValue(attributes[key]);
}

/** Whether the attribute is set to something other than null, false, "" or an empty list. */
export function isSet(attributes: Attributes, key: string): boolean {
  const value = attributes[key];
  if (value === undefined || value === null || value === false || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}
