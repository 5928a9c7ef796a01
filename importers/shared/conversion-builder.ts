import { slugify, TEXT_BOUNDS, validateCheck, ValidationMemo, type CheckDefinition, type CheckTypeName, type ThresholdsInput } from '../../checks/index.js';
import type { MaintenanceCandidate } from './maintenance-candidate.js';
import type { ConversionResult } from '../converter.js';
import { ItemScope } from './item-scope.js';
import { SlugAllocator } from './slug-allocator.js';
import { MANAGED_LABEL_KEY, type ImportSource } from './sources.js';
import { cutCodePoints } from './values.js';
import type { ImportWarning, SkippedItem } from './warnings.js';

// A name holds no control character at all (checks/check-fields.ts).
const NAME_CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]+/gu;

/** A check as a converter proposes it: a check definition without its slug, config loosely typed. */
export interface CheckCandidate {
  name: string;
  type: CheckTypeName;
  enabled?: boolean;
  intervalSeconds?: number;
  target?: string;
  config?: Record<string, unknown>;
  thresholds?: ThresholdsInput;
  labels?: Record<string, string>;
  description?: string;
  /** A heartbeat's ping token in the source, to keep (see ConversionResult.pingTokens). */
  pingToken?: string;
}

// Optional fields a converter leaves undefined are left out, so that the emitted check is the
// same whether a source omitted a field or wrote it empty.
function withoutUndefined<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== undefined) out[key] = withoutUndefined(inner);
  }
  return out as T;
}

/**
 * The source's name as the catalog accepts it: control characters written as a space, trimmed,
 * and cut to the catalog's length in code points; each change is a `VALUE_ADJUSTED` warning.
 */
function importName(source: string, scope: ItemScope): string {
  const trimmed = source.trim();
  const cleaned = trimmed.replace(NAME_CONTROL_CHARACTERS, ' ').trim();
  if (cleaned !== trimmed) scope.warn('VALUE_ADJUSTED', 'control characters in the name were written as spaces', 'name');
  const name = cutCodePoints(cleaned, TEXT_BOUNDS.name).trim();
  if (name !== cleaned) scope.warn('VALUE_ADJUSTED', `the name was cut to ${TEXT_BOUNDS.name} characters`, 'name');
  return name;
}

/**
 * Collects the outcome of one conversion and applies the steps every converter shares: the
 * catalog validates each candidate (a rejected one becomes an `INVALID_ITEM` warning and is
 * skipped, never emitted), slugs are allocated in input order among the emitted checks, and
 * every emitted check carries the label `svc-managed=<source>`.
 */
export class ConversionBuilder {
  readonly #source: ImportSource;
  readonly #slugs = new SlugAllocator();
  readonly #checks: CheckDefinition[] = [];
  readonly #warnings: ImportWarning[] = [];
  readonly #skipped: SkippedItem[] = [];
  readonly #pingTokens: Record<string, string> = {};
  readonly #maintenance: MaintenanceCandidate[] = [];
  /** The converted checks mostly share their configs, thresholds and labels: each is validated once. */
  readonly #validations = new ValidationMemo();

  constructor(source: ImportSource) {
    this.#source = source;
  }

  /** Starts an item: `item` names it in warnings (its name in the source, or its position). */
  item(item: string): ItemScope {
    return new ItemScope(item, this.#warnings);
  }

  /**
   * Records that the item produces no check; `code` is `UNSUPPORTED_TYPE` or `INVALID_ITEM`, or
   * `BECAME_LABEL` for an item that lives on as a label of others.
   */
  skip(scope: ItemScope, code: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM' | 'BECAME_LABEL', message: string, field?: string): void {
    scope.warn(code, message, field);
    this.#skipped.push({ item: scope.item, reason: code, message });
  }

  /**
   * Validates `candidate` with the catalog and, when it passes, emits it under a fresh slug and
   * returns it; otherwise skips the item with an `INVALID_ITEM` warning listing the problems.
   */
  emit(scope: ItemScope, { pingToken, ...candidate }: CheckCandidate): CheckDefinition | undefined {
    const name = importName(candidate.name, scope);
    if (name === '') {
      this.skip(scope, 'INVALID_ITEM', 'the item has no name', 'name');
      return undefined;
    }
    const labels = { ...candidate.labels, [MANAGED_LABEL_KEY]: this.#source };
    // The name's slug is worked out once: the check is validated with it, then the allocator
    // hands it out or a numbered one.
    const base = slugify(name);
    const validation = validateCheck(withoutUndefined({ ...candidate, slug: base, name, labels }), this.#validations);
    if (!validation.ok) {
      const problems = validation.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
      this.skip(scope, 'INVALID_ITEM', `the converted check is not valid (${problems.join('; ')}); the item was skipped`);
      return undefined;
    }
    const slug = this.#slugs.allocate(name, base);
    const check = scope.resolveSecrets(slug, { ...validation.check, slug });
    scope.attachSlug(slug);
    this.#checks.push(check);
    if (pingToken !== undefined) this.#pingTokens[slug] = pingToken;
    return check;
  }

  /** Adds a maintenance window the source defines. */
  maintenance(window: MaintenanceCandidate): void {
    this.#maintenance.push(window);
  }

  /** The checks, warnings, skipped items and maintenance windows so far, in input order. */
  result(): ConversionResult {
    return {
      checks: [...this.#checks],
      warnings: [...this.#warnings],
      skipped: [...this.#skipped],
      ...(Object.keys(this.#pingTokens).length > 0 ? { pingTokens: { ...this.#pingTokens } } : {}),
      ...(this.#maintenance.length > 0 ? { maintenance: [...this.#maintenance] } : {}),
    };
  }
}
