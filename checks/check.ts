import type { Thresholds, ThresholdsInput } from './check-fields.js';
import type { CheckConfig, CheckConfigInput, CheckTypeName } from './registry.js';

/** The fields every normalised check has, whatever its type. */
export interface CheckCommon {
  /** Identifies the check within its organization. */
  slug: string;
  name: string;
  enabled: boolean;
  intervalSeconds: number;
  /** What is watched; see the type's target description. Empty for heartbeat checks. */
  target: string;
  thresholds: Thresholds;
  labels: Record<string, string>;
  description?: string;
}

/**
 * A normalised check definition, as `validateCheck` returns it and importers produce it:
 * defaults filled, slug derived. Narrow on `type` to get the type's config.
 */
export type CheckDefinition<T extends CheckTypeName = CheckTypeName> = T extends CheckTypeName ? CheckCommon & { type: T; config: CheckConfig<T> } : never;

/** A check definition as accepted on input: everything with a default may be left out. */
export type CheckInput<T extends CheckTypeName = CheckTypeName> = T extends CheckTypeName
  ? {
      slug?: string;
      name: string;
      type: T;
      enabled?: boolean;
      intervalSeconds?: number;
      target?: string;
      config?: CheckConfigInput<T>;
      thresholds?: ThresholdsInput;
      labels?: Record<string, string>;
      description?: string;
    }
  : never;
