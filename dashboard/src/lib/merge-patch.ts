const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON Merge Patch (RFC 7396) that turns `before` into `after`: changed values as they are
 * now, removed keys as null, nested objects patched key by key. Lists are replaced whole.
 */
export function mergePatchFrom(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(before)) if (!(key in after) || after[key] === undefined) patch[key] = null;
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[key];
    if (isPlainObject(old) && isPlainObject(value)) {
      const inner = mergePatchFrom(old, value);
      if (Object.keys(inner).length) patch[key] = inner;
    } else if (JSON.stringify(old) !== JSON.stringify(value)) patch[key] = value;
  }
  return patch;
}
