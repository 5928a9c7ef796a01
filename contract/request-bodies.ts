// Request bodies the daemon validates itself rather than with a route's zod schema (the check
// catalog, the hashing policy), by name: a route declares `bodyType: '<name>'` and the OpenAPI
// document describes the body with the JSON Schema generated from the type. Types only.
import type { PolicyOverrides, Thresholds } from './responses.js';

/** A check as sent to create, validate or test one: everything with a default may be left out. */
export interface CheckInput {
  /** Derived from the name when absent. */
  slug?: string;
  name: string;
  /** One of `GET /check-types`. */
  type: string;
  enabled?: boolean;
  intervalSeconds?: number;
  /** What is watched; see the type's target description. Empty for heartbeat checks. */
  target?: string;
  /** The type's settings: its JSON Schema is the `schema` of `GET /check-types`. */
  config?: Record<string, unknown>;
  thresholds?: Partial<Thresholds>;
  labels?: Record<string, string>;
  description?: string;
}

/** A JSON Merge Patch of a check: the fields to change; null removes one. */
export type CheckPatch = { [Field in keyof CheckInput]?: CheckInput[Field] | null };

/** The body of each such request, by the name a route declares. */
export interface RequestBodies {
  CheckInput: CheckInput;
  CheckPatch: CheckPatch;
  PolicyOverrides: PolicyOverrides;
}

/** The name of a request body, as a route declares it. */
export type RequestName = keyof RequestBodies;
