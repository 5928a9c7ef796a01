import { z } from 'zod';
import type { ValidationIssue } from './issues.js';
import { containsReference } from './secret-references.js';

// Which fields of a check's config carry credentials: passwords, keys, tokens, header and
// metadata values. Only these may hold a `{{secrets.NAME}}` reference, because only these
// go to the target as credentials; anywhere else (a URL, a keyword, a query, a body) the
// secret's value would end up where a result message, a viewer or a notification can read it.

/** The catalog's mark on a credential field (see `credential`). */
const credentialFields = z.registry<{ credential: true }>();

/** Marks `schema` as a credential field: a secret reference is accepted in it. Returns it. */
export function credential<T extends z.ZodType>(schema: T): T {
  credentialFields.add(schema, { credential: true });
  return schema;
}

type Def = {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  keyType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  options?: z.core.$ZodType[];
};

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Whether `schema` or one of the schemas it wraps is marked as a credential. */
function isCredential(schema: z.core.$ZodType): boolean {
  let current: z.core.$ZodType | undefined = schema;
  while (current) {
    if (credentialFields.get(current as z.ZodType)?.credential) return true;
    const def = current._zod.def as Def;
    current = WRAPPERS.has(def.type) ? def.innerType : def.type === 'pipe' ? def.in : undefined;
  }
  return false;
}

/** `schema` without its wrappers (optional, default, pipe input, ...). */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as Def;
    const next = WRAPPERS.has(def.type) ? def.innerType : def.type === 'pipe' ? def.in : undefined;
    if (!next) return current;
    current = next;
  }
}

const KINDS: Record<string, string> = { string: 'string', object: 'object', record: 'object', array: 'array' };

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}

/** The message of a reference outside a credential field. */
export const MISPLACED_REFERENCE =
  'a secret reference ({{secrets.NAME}}) is accepted only in a credential field (a password, key, token, or a header or ' +
  "metadata value): elsewhere the secret's value could show in results and notifications";

/**
 * Every place in `value` (parsed against `schema`) where a string holding a secret reference is
 * not a credential field, as validation issues under `path`. Keys the schema does not know
 * are left to the schema's own validation.
 */
export function misplacedReferences(schema: z.core.$ZodType, value: unknown, path: string[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (node: z.core.$ZodType, data: unknown, at: string[]): void => {
    if (isCredential(node)) return;
    if (typeof data === 'string') {
      if (containsReference(data)) issues.push({ path: at.join('.'), message: MISPLACED_REFERENCE });
      return;
    }
    const inner = unwrap(node);
    const def = inner._zod.def as Def;
    if (def.type === 'union' && def.options) {
      const option = def.options.find((candidate) => KINDS[(unwrap(candidate)._zod.def as Def).type] === kindOf(data));
      if (option) walk(option, data, at);
      else scan(data, at);
      return;
    }
    if (Array.isArray(data)) {
      data.forEach((item, index) => (def.element ? walk(def.element, item, [...at, String(index)]) : scan(item, [...at, String(index)])));
      return;
    }
    if (data === null || typeof data !== 'object') return;
    for (const [key, item] of Object.entries(data)) {
      const where = [...at, key];
      if (def.type === 'object' && def.shape) {
        if (Object.hasOwn(def.shape, key)) walk(def.shape[key], item, where);
      } else if (def.type === 'record' && def.valueType) {
        if (containsReference(key)) issues.push({ path: where.join('.'), message: MISPLACED_REFERENCE });
        walk(def.valueType, item, where);
      } else scan(item, where);
    }
  };
  // Data the schema does not describe further: any reference in it is misplaced.
  const scan = (data: unknown, at: string[]): void => {
    if (typeof data === 'string') {
      if (containsReference(data)) issues.push({ path: at.join('.'), message: MISPLACED_REFERENCE });
    } else if (Array.isArray(data)) data.forEach((item, index) => scan(item, [...at, String(index)]));
    else if (data !== null && typeof data === 'object') for (const [key, item] of Object.entries(data)) scan(item, [...at, key]);
  };
  walk(schema, value, path);
  return issues;
}
