import type { z } from 'zod';
import type { ThresholdsInput } from './check-fields.js';
import type { TargetRule } from './targets.js';

/** The schema of a type's `config`: always a strict object, so misspelt fields are reported. */
export type ConfigSchema = z.ZodObject;

/** The example a type ships: a check without its `type`, in input form (defaults may be left out). */
export interface CheckSample<Config extends ConfigSchema> {
  readonly name: string;
  readonly target?: string;
  readonly config: z.input<Config>;
  readonly intervalSeconds?: number;
  readonly thresholds?: ThresholdsInput;
  readonly labels?: Record<string, string>;
  readonly description?: string;
}

/** One declaration per check type: everything the API, the importers and the MCP tools need. */
export interface CheckType<Name extends string = string, Config extends ConfigSchema = ConfigSchema> {
  /** The `type` value of a check, e.g. `http`. */
  readonly type: Name;
  readonly title: string;
  readonly description: string;
  /** What `target` means for this type, and how it is checked. */
  readonly target: TargetRule;
  /** The schema of `config`. */
  readonly config: Config;
  /** A complete, realistic check of this type. */
  readonly sample: CheckSample<Config>;
}

/** Declares a check type; exists so that the literal type name and config schema are inferred. */
export function defineCheckType<const Name extends string, Config extends ConfigSchema>(declaration: CheckType<Name, Config>): CheckType<Name, Config> {
  return Object.freeze(declaration);
}
