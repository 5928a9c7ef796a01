import type jsonata from 'jsonata';
import { asText, compare, compareAsText, type ComparisonOperator } from './compare.js';
import { ProbeFailure, type ProbeContext } from './probe.js';

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

/**
 * Evaluates a check's JSON assertions on `data`: why the first that does not hold fails, or
 * undefined when all hold. The daemon evaluates them on a worker thread with a time limit
 * (daemon/runner/json-query-pool.ts), because an expression's regular expression can run for
 * ever; without one (the CLI, benchmarks) they run on the calling thread.
 */
export type JsonQueryEvaluator = (data: unknown, queries: readonly JsonQuery[], signal: AbortSignal) => Promise<string | undefined>;

type Jsonata = typeof jsonata;
type Compiled = ReturnType<Jsonata>;

// Checks run the same few expressions every interval: compiling once saves the parse per run.
// The cache is bounded; past the bound the oldest entry goes.
const MAX_CACHED = 2_000;

// JSONata's guardrails bound each evaluation's time between steps, its recursion depth and
// sequence length; one regular expression is one step, which only the worker's deadline stops.
const GUARDRAILS = { timeout: 100, stack: 500, sequence: 100_000 };

const SHOWN_MAX = 60;

function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? asText(value));
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

/** A function that evaluates a check's assertions with its own cache of compiled expressions. */
export type JsonQueryCheck = (data: unknown, queries: readonly JsonQuery[], starting?: (index: number) => void) => Promise<string | undefined>;

/**
 * A function that evaluates assertions (with its own cache of compiled expressions) and says
 * why the first fails (`JSON status is "down", expected == "ok"`); `starting` hears the index
 * of each assertion as its evaluation starts.
 */
export function createJsonQueryCheck(): JsonQueryCheck {
  const compiled = new Map<string, Compiled | string>();
  const compile = (jsonata: Jsonata, expression: string): Compiled | string => {
    let found = compiled.get(expression);
    if (found === undefined) {
      try {
        found = jsonata(expression, GUARDRAILS);
      } catch (error) {
        found = `JSON query ${expression} is not valid JSONata: ${(error as Error).message}`;
      }
      if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
      compiled.set(expression, found);
    }
    return found;
  };
  return async (data, queries, starting) => {
    if (queries.length === 0) return undefined;
    // JSONata loads with the first check that has assertions.
    const { default: jsonata } = await import('jsonata');
    for (const [index, query] of queries.entries()) {
      starting?.(index);
      const expression = compile(jsonata, query.expression);
      if (typeof expression === 'string') return expression;
      let actual: unknown;
      try {
        actual = await expression.evaluate(data);
      } catch (error) {
        return `JSON query ${query.expression} failed: ${(error as Error).message}`;
      }
      const kind = query.scalarOnly ? nonScalar(actual) : undefined;
      if (kind !== undefined) return `JSON ${query.expression} is ${kind} (${shown(actual)}); only a string, number or boolean is compared`;
      const holds = query.compareAs === 'text' ? compareAsText : compare;
      if (actual === undefined || !holds(actual, query.operator, query.expected)) {
        return `JSON ${query.expression} is ${shown(actual)}, expected ${query.operator} ${JSON.stringify(query.expected)}`;
      }
    }
    return undefined;
  };
}

/**
 * Evaluates every assertion on `data` with the context's evaluator (on this thread, with the
 * run's compiled expressions, when there is none); throws a ProbeFailure naming the first that
 * does not hold.
 */
export async function assertJsonQueries(
  data: unknown,
  queries: readonly JsonQuery[],
  context: Pick<ProbeContext, 'jsonQueries' | 'signal' | 'caches'>,
): Promise<void> {
  const failure = context.jsonQueries ? await context.jsonQueries(data, queries, context.signal) : await context.caches.jsonQueries(data, queries);
  if (failure !== undefined) throw new ProbeFailure(failure);
}
