import type { CompiledQuery } from 'kysely';
import type { Executor } from './executor.js';

/**
 * A read that runs on every request (the caller's session, their role, ...), written with the
 * query builder but built and compiled only once per database: building and compiling a small
 * query costs more than running it. Run it with `db.readOne(read, args)`.
 *
 * `build` is called once, with stand-ins for its arguments, so it must hand each argument
 * straight to the query as a value and never look at it; compiling throws when it does not.
 */
export interface PreparedRead<Args extends unknown[], Row> {
  build(db: Executor, ...args: Args): { compile(): CompiledQuery<Row> };
}

export const preparedRead = <Args extends unknown[], Row>(build: PreparedRead<Args, Row>['build']): PreparedRead<Args, Row> => ({ build });

/** A prepared read compiled for one database: its SQL, and its parameters given the arguments. */
export interface CompiledRead {
  sql: string;
  parameters(args: readonly unknown[]): unknown[];
}

const standIn = (index: number) => `\u0000svc-argument-${index}\u0000`;

/** Where one parameter of the compiled query comes from. */
type Slot = { argument: number; value?: undefined } | { argument?: undefined; value: unknown };

export function compileRead<Args extends unknown[], Row>(db: Executor, read: PreparedRead<Args, Row>): CompiledRead {
  const arity = read.build.length - 1;
  const standIns = Array.from({ length: arity }, (_, i) => standIn(i));
  const compiled = read.build(db, ...(standIns as Args)).compile();
  // Each parameter is either an argument, by position, or a constant of the query itself.
  const slots = compiled.parameters.map((value): Slot => {
    const argument = standIns.indexOf(value as string);
    return argument >= 0 ? { argument } : { value };
  });
  const unused = standIns.findIndex((_, i) => !slots.some((slot) => slot.argument === i));
  if (unused >= 0 || compiled.sql.includes('\u0000')) {
    throw new Error(`a prepared read must pass argument ${unused >= 0 ? unused : '?'} to the query as a value, unchanged: ${compiled.sql}`);
  }
  return {
    sql: compiled.sql,
    parameters: (args) => slots.map((slot) => (slot.argument === undefined ? slot.value : args[slot.argument])),
  };
}
