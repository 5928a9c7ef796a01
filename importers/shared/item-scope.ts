import { checkSecretName, INTERVAL_BOUNDS, secretNameFrom, secretReference } from '../../checks/index.js';
import type { ImportWarning, ImportWarningCode } from './warnings.js';

/** The catalog's bounds of `thresholds.timeoutMs`. */
export const TIMEOUT_BOUNDS_MS = { min: 100, max: 300_000 } as const;

// The catalog's bounds of a heartbeat check's `periodSeconds`: 10 s to 31 days.
const HEARTBEAT_PERIOD_BOUNDS = { min: 10, max: 2_678_400 } as const;
/** The catalog's bounds of a heartbeat's grace time, in seconds (7 days). */
const HEARTBEAT_GRACE_MAX_SECONDS = 604_800;

// A secret named after the check's slug cannot be named before the slug is allocated (after
// validation): until then its reference carries this stand-in, which emit() replaces.
const PENDING = 'SVC_PENDING_SLUG__';

/** What to tell the user about a secret the check now refers to. */
export const setSecretAdvice = (name: string): string => `set secret ${name} (svc secrets set ${name})`;

/**
 * The warnings of one source item while it is converted. Warnings go to the import's list in
 * the order they are raised; the slug is filled in once the item has become a check.
 */
export class ItemScope {
  readonly #sink: ImportWarning[];
  readonly #own: ImportWarning[] = [];
  readonly #pendingSecrets = new Set<string>();

  /** `item` names the item in warnings: its name in the source, or its position when it has none. */
  constructor(
    readonly item: string,
    sink: ImportWarning[],
  ) {
    this.#sink = sink;
  }

  /** Records a warning about this item; `field` is the source's field, in its own spelling. */
  warn(code: ImportWarningCode, message: string, field?: string): void {
    const warning: ImportWarning = { item: this.item, code, ...(field === undefined ? {} : { field }), message };
    this.#own.push(warning);
    this.#sink.push(warning);
  }

  /** The warnings raised so far about this item. */
  get warnings(): readonly ImportWarning[] {
    return this.#own;
  }

  /**
   * A reference to the secret that holds `field`'s credential, which the source had and which
   * is never carried over: the name comes from the check's slug and `field` (e.g.
   * `ORDERS_DB_PASSWORD`), so a re-run import refers to the same secret. Raises the
   * `SECRET_DROPPED` warning saying which secret to set; `what` names the credential.
   */
  secretFor(field: string, what: string, sourceField?: string): string {
    const suffix = secretNameFrom(field, 40);
    this.#pendingSecrets.add(suffix);
    const name = `${PENDING}${suffix}`;
    this.warn('SECRET_DROPPED', `${what} was not imported (secrets never carry over): ${setSecretAdvice(name)}`, sourceField);
    return secretReference(name);
  }

  /**
   * A reference to a secret the source itself names (a `${VAR}` placeholder): the check refers
   * to the secret of that name, with a `SECRET_DROPPED` warning saying to set it.
   */
  namedSecret(variable: string, what: string, sourceField?: string): string {
    const name = secretNameFrom(variable);
    this.warn('SECRET_DROPPED', `${what} is the placeholder \${${variable}}: ${setSecretAdvice(name)}`, sourceField);
    return secretReference(name);
  }

  /** `value` with the secret names this item asked for made final from the check's slug. */
  resolveSecrets<T>(slug: string, value: T): T {
    if (this.#pendingSecrets.size === 0) return value;
    return JSON.parse(this.#resolve(slug, JSON.stringify(value))) as T;
  }

  #resolve(slug: string, text: string): string {
    let out = text;
    for (const suffix of this.#pendingSecrets) out = out.split(`${PENDING}${suffix}`).join(checkSecretName(slug, suffix));
    return out;
  }

  /** Puts the slug of the check the item became on each of its warnings (and in the secret names they give). */
  attachSlug(slug: string): void {
    for (const warning of this.#own) {
      warning.slug = slug;
      warning.message = this.#resolve(slug, warning.message);
    }
  }

  /**
   * An interval in whole seconds within the catalog's bounds (10 s to a day); a value outside
   * them is moved to the nearest bound with a `VALUE_ADJUSTED` warning on `field`. Undefined
   * (the catalog's default) when `seconds` is not a finite number.
   */
  intervalSeconds(seconds: number | undefined, field: string): number | undefined {
    if (seconds === undefined) return undefined;
    if (!Number.isFinite(seconds)) {
      this.warn('VALUE_ADJUSTED', `the interval is not a number; the default of ${INTERVAL_BOUNDS.default} s is used`, field);
      return undefined;
    }
    return this.#fit(seconds, INTERVAL_BOUNDS.min, INTERVAL_BOUNDS.max, 's', 'interval', field);
  }

  /**
   * A timeout in whole milliseconds within the catalog's bounds (100 ms to 5 min) and no
   * longer than the interval, adjusted with a `VALUE_ADJUSTED` warning on `field`.
   */
  timeoutMs(ms: number | undefined, intervalSeconds: number | undefined, field: string): number | undefined {
    if (ms === undefined) return undefined;
    if (!Number.isFinite(ms)) {
      this.warn('VALUE_ADJUSTED', 'the timeout is not a number; the default is used', field);
      return undefined;
    }
    const interval = (intervalSeconds ?? INTERVAL_BOUNDS.default) * 1000;
    const max = Math.min(TIMEOUT_BOUNDS_MS.max, interval);
    const note = max === interval && ms > max ? 'a probe may not outlast the interval' : undefined;
    return this.#fit(ms, TIMEOUT_BOUNDS_MS.min, max, 'ms', 'timeout', field, note);
  }

  /**
   * A heartbeat period in whole seconds within the catalog's bounds (10 s to 31 days); any other
   * value is rounded and moved into them with a `VALUE_ADJUSTED` warning on `field`.
   */
  heartbeatPeriodSeconds(seconds: number, field: string): number {
    const period = Math.min(HEARTBEAT_PERIOD_BOUNDS.max, Math.max(HEARTBEAT_PERIOD_BOUNDS.min, Math.round(seconds)));
    if (period !== seconds) {
      this.warn('VALUE_ADJUSTED', `the heartbeat interval of ${seconds} s was changed to ${period} s (10 s to 31 days)`, field);
    }
    return period;
  }

  /**
   * A heartbeat's grace time in whole seconds within the catalog's bounds (0 to 7 days), moved
   * into them with a `VALUE_ADJUSTED` warning on `field`.
   */
  heartbeatGraceSeconds(seconds: number, field: string): number {
    return this.#fit(seconds, 0, HEARTBEAT_GRACE_MAX_SECONDS, 's', 'grace time', field, 'at most 7 days');
  }

  #fit(value: number, min: number, max: number, unit: string, what: string, field: string, note?: string): number {
    const whole = Math.round(value);
    const fitted = Math.min(max, Math.max(min, whole));
    if (fitted !== value) {
      const why = note ?? (whole !== value && whole === fitted ? 'rounded to a whole number' : `kept within ${min}-${max} ${unit}`);
      this.warn('VALUE_ADJUSTED', `the ${what} of ${value} ${unit} was changed to ${fitted} ${unit} (${why})`, field);
    }
    return fitted;
  }
}
