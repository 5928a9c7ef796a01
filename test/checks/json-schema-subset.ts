// A small JSON Schema checker for the keywords the catalog's schemas use, so the tests can
// confirm that an exported schema accepts what validateCheck accepts (and refuses what it
// refuses) without a schema library among the dependencies.

type Schema = Record<string, unknown>;

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

/** The paths at which `value` breaks `schema` (empty when it conforms). */
export function schemaErrors(schema: Schema, value: unknown, path = ''): string[] {
  const errors: string[] = [];
  const fail = (why: string) => errors.push(`${path || '(root)'}: ${why}`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => typeMatches(type, value))) return [`${path || '(root)'}: not ${types.join('|')}`];
  }
  if ('const' in schema && value !== schema.const) fail('const');
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) fail('enum');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (!options) continue;
    const matches = options.filter((option) => schemaErrors(option, value, path).length === 0).length;
    if (key === 'anyOf' ? matches === 0 : matches !== 1) fail(key);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) fail('minimum');
    if (typeof schema.maximum === 'number' && value > schema.maximum) fail('maximum');
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) fail('minLength');
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) fail('maxLength');
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) fail('pattern');
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail('minItems');
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail('maxItems');
    if (schema.items) value.forEach((item, i) => errors.push(...schemaErrors(schema.items as Schema, item, `${path}.${i}`)));
  }
  if (typeMatches('object', value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) if (!(key in object)) fail(`required ${key}`);
    for (const [key, item] of Object.entries(object)) {
      const child = `${path ? `${path}.` : ''}${key}`;
      if (schema.propertyNames) errors.push(...schemaErrors(schema.propertyNames as Schema, key, `${child} (name)`));
      if (properties[key]) errors.push(...schemaErrors(properties[key], item, child));
      else if (schema.additionalProperties === false) fail(`additional property ${key}`);
      else if (typeof schema.additionalProperties === 'object') {
        errors.push(...schemaErrors(schema.additionalProperties as Schema, item, child));
      }
    }
  }
  return errors;
}
