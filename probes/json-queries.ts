import jsonata from 'jsonata';
import { asText, compare, compareAsText, type ComparisonOperator } from './compare.js';
import { ProbeFailure } from './probe.js';

/** The catalog's JSON assertion, as the probes receive it. */
export interface JsonQuery {
  expression: string;
  operator: ComparisonOperator;
  expected: string;
  compareAs?: 'auto' | 'text';
  scalarOnly?: boolean;
}

/** What a value is when it is not one a scalar-only assertion compares; undefined for a scalar. */
function nonScalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return undefined;
}

type Compiled = ReturnType<typeof jsonata>;

/**
 * Compiled expressions by their text. Checks run the same few expressions every interval:
 * compiling once saves the parse per run. Held by ProbeCaches; bounded, past the bound the
 * oldest entry goes.
 */
export type CompiledQueries = Map<string, Compiled>;
const MAX_CACHED = 2_000;

// Expressions come from whoever writes checks and run on the daemon's event loop: JSONata's
// guardrails bound each evaluation's time, recursion depth and sequence length.
const GUARDRAILS = { timeout: 100, stack: 500, sequence: 100_000 };

function compile(compiled: CompiledQueries, expression: string): Compiled {
  let found = compiled.get(expression);
  if (!found) {
    try {
      found = jsonata(expression, GUARDRAILS);
    } catch (error) {
      throw new ProbeFailure(`JSON query ${expression} is not valid JSONata: ${(error as Error).message}`);
    }
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(expression, found);
  }
  return found;
}

const SHOWN_MAX = 60;

function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value) ?? asText(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX - 1)}…` : text;
}

/** Parses a JSON body, or fails saying it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProbeFailure('the response body is not JSON');
  }
}

/**
 * Evaluates every assertion on `data`; throws a ProbeFailure naming the first that does not hold
 * (`JSON status is "down", expected == "ok"`).
 */
export async function assertJsonQueries(data: unknown, queries: readonly JsonQuery[], compiled: CompiledQueries): Promise<void> {
  for (const query of queries) {
    let actual: unknown;
    try {
      actual = await compile(compiled, query.expression).evaluate(data);
    } catch (error) {
      if (error instanceof ProbeFailure) throw error;
      throw new ProbeFailure(`JSON query ${query.expression} failed: ${(error as Error).message}`);
    }
    const kind = query.scalarOnly ? nonScalar(actual) : undefined;
    if (kind !== undefined) {
      throw new ProbeFailure(`JSON ${query.expression} is ${kind} (${shown(actual)}); only a string, number or boolean is compared`);
    }
    const holds = query.compareAs === 'text' ? compareAsText : compare;
    if (actual === undefined || !holds(actual, query.operator, query.expected)) {
      throw new ProbeFailure(
        `JSON ${query.expression} is ${shown(actual)}, expected ${query.operator} ${JSON.stringify(query.expected)}`,
      );
    }
  }
}
