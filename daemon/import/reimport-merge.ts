import { joinPath, validateCheck, type CheckDefinition } from '../../checks/index.js';
import type { ImportFieldChange, ImportFieldConflict } from '../../contract/responses.js';
import { canonicalJson } from '../checks/canonical-json.js';

// A re-run import is a three-way merge, field by field, of what the last import set (the
// baseline), what the check is here now, and what the source says now: a field the source did
// not change keeps its value here (a pause or an edit made here survives); a field only the
// source changed takes the source's value; a field changed on both sides is a conflict, kept
// here unless the import overwrites. Objects (config, thresholds, labels, headers) are walked
// key by key; lists and other values are compared whole.

/** What a re-run does to one existing check. */
export interface ReimportMerge {
  /** The definition to store (the current one when nothing changes). */
  definition: CheckDefinition;
  changes: ImportFieldChange[];
  conflicts: ImportFieldConflict[];
}

type Path = readonly string[];
type Leaves = Map<string, { path: Path; value: unknown }>;

/** The fields a re-run compares: all but the slug, which is what matched the check. */
const FIELDS = ['name', 'type', 'enabled', 'intervalSeconds', 'target', 'config', 'thresholds', 'labels', 'description'] as const;
/** The fields whose meaning depends on the type: when the type differs, they go together. */
const KIND_FIELDS = new Set(['type', 'target', 'config']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => a === b || (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b));

/** Every leaf of a value with its path: non-empty objects are walked, anything else is one leaf. */
function leaves(value: unknown, path: Path, into: Leaves): Leaves {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, [...path, key], into);
  } else if (value !== undefined) into.set(JSON.stringify(path), { path, value });
  return into;
}

function fieldLeaves(check: CheckDefinition | undefined, fields: readonly string[]): Leaves {
  const into: Leaves = new Map();
  if (!check) return into;
  for (const field of fields) leaves((check as unknown as Record<string, unknown>)[field], [field], into);
  return into;
}

/** Sets a leaf in a plain object, making the objects on its path. */
function setLeaf(target: Record<string, unknown>, path: Path, value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  at[last] = isObject(value) && isObject(at[last]) ? { ...(at[last] as object), ...value } : value;
}

/** Each leaf that differs between two definitions, as the preview lists it. */
export function definitionChanges(from: CheckDefinition, to: CheckDefinition, fields: readonly string[] = FIELDS): ImportFieldChange[] {
  const before = fieldLeaves(from, fields);
  const after = fieldLeaves(to, fields);
  const changes: ImportFieldChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    if (same(a?.value, b?.value)) continue;
    changes.push({ field: joinPath((a ?? b)!.path), ...(a ? { from: a.value } : {}), ...(b ? { to: b.value } : {}) });
  }
  return changes;
}

interface Decision {
  path: Path;
  value: unknown;
  conflict?: ImportFieldConflict;
}

/**
 * One leaf: `base` is what the last import set (`NO_BASE` when nothing is known of it, so any
 * difference between here and the source is a conflict).
 */
function decide(path: Path, base: unknown, here: unknown, source: unknown, overwrite: boolean): Decision {
  if (base !== NO_BASE && same(source, base)) return { path, value: here };
  if (same(here, source)) return { path, value: here };
  if (base !== NO_BASE && same(here, base)) return { path, value: source };
  const taken = overwrite ? 'source' : 'here';
  const conflict: ImportFieldConflict = {
    field: joinPath(path),
    ...(here === undefined ? {} : { here }),
    ...(source === undefined ? {} : { source }),
    taken,
  };
  return { path, value: overwrite ? source : here, conflict };
}

const NO_BASE = Symbol('no baseline');

/** Merges the leaves of `fields` of the three definitions into `into`, collecting conflicts. */
function mergeFields(
  fields: readonly string[],
  base: CheckDefinition | undefined,
  here: CheckDefinition,
  source: CheckDefinition,
  overwrite: boolean,
  into: Record<string, unknown>,
  conflicts: ImportFieldConflict[],
): void {
  const b = fieldLeaves(base, fields);
  const h = fieldLeaves(here, fields);
  const s = fieldLeaves(source, fields);
  for (const key of new Set([...b.keys(), ...h.keys(), ...s.keys()])) {
    const path = (b.get(key) ?? h.get(key) ?? s.get(key))!.path;
    const decision = decide(path, base ? b.get(key)?.value : NO_BASE, h.get(key)?.value, s.get(key)?.value, overwrite);
    if (decision.conflict) conflicts.push(decision.conflict);
    if (decision.value !== undefined) setLeaf(into, path, decision.value);
  }
}

/**
 * The definition a re-run stores over `here`, given the `source`'s definition now and the
 * `base` the last import of this source set (undefined when there is no record of it: then
 * every field that differs is a conflict). When the type differs on any side, type, target and
 * config are merged as one unit, since a config means nothing to another type. A mix of both
 * sides that is not a valid check is not stored: every field the source changed is then a
 * conflict, kept here (or, with `overwrite`, the source's whole definition is taken).
 */
export function mergeReimport(base: CheckDefinition | undefined, here: CheckDefinition, source: CheckDefinition, overwrite: boolean): ReimportMerge {
  const merged: Record<string, unknown> = { slug: here.slug };
  const conflicts: ImportFieldConflict[] = [];
  const kindDiffers = here.type !== source.type || (base !== undefined && base.type !== source.type);
  const leafFields = kindDiffers ? FIELDS.filter((field) => !KIND_FIELDS.has(field)) : FIELDS;
  mergeFields(leafFields, base, here, source, overwrite, merged, conflicts);
  if (kindDiffers) {
    const kind = (check: CheckDefinition | undefined) => check && { type: check.type, target: check.target, config: check.config };
    const decision = decide(['type'], base ? kind(base) : NO_BASE, kind(here), kind(source), overwrite);
    Object.assign(merged, decision.value);
    if (decision.conflict) conflicts.push(...kindConflicts(here, source, decision.conflict.taken));
  }
  const definition = settle(merged, here, source);
  if (definition) return { definition, changes: definitionChanges(here, definition), conflicts };
  // The mix is not a valid check: nothing is mixed.
  const changed = definitionChanges(base ?? here, source).map((change) => change.field);
  const mixConflicts = definitionChanges(here, source)
    .filter((change) => base === undefined || changed.includes(change.field))
    .map(
      ({ field, from, to }): ImportFieldConflict => ({
        field,
        ...(from === undefined ? {} : { here: from }),
        ...(to === undefined ? {} : { source: to }),
        taken: overwrite ? 'source' : 'here',
      }),
    );
  const taken = overwrite ? source : here;
  return { definition: taken, changes: definitionChanges(here, taken), conflicts: mixConflicts };
}

/** The conflicts of type, target and config taken as one, listed field by field. */
function kindConflicts(here: CheckDefinition, source: CheckDefinition, taken: 'here' | 'source'): ImportFieldConflict[] {
  return definitionChanges(here, source, [...KIND_FIELDS]).map(({ field, from, to }) => ({
    field,
    ...(from === undefined ? {} : { here: from }),
    ...(to === undefined ? {} : { source: to }),
    taken,
  }));
}

/**
 * The merged definition as a valid check, or undefined when it is not one. A result equal to
 * one side is that side (both are valid already); only a real mix is validated.
 */
function settle(merged: Record<string, unknown>, here: CheckDefinition, source: CheckDefinition): CheckDefinition | undefined {
  const text = canonicalJson(merged);
  if (text === canonicalJson(here)) return here;
  if (text === canonicalJson(source)) return source;
  const validation = validateCheck(merged);
  return validation.ok ? validation.check : undefined;
}
