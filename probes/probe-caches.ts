import { createJsonQueryCheck, type JsonQueryCheck } from './json-queries.js';
import { RdapBootstrap } from './rdap-bootstrap.js';

/**
 * What probes keep from one run to the next. No probe module keeps state: the daemon holds one
 * of these on AppDeps.caches and hands it to every run; a one-off run (the CLI, a test) gets a
 * fresh one.
 */
export interface ProbeCaches {
  /** The RDAP bootstrap file of the domain checks, read once a day. */
  rdapBootstrap: RdapBootstrap;
  /** JSON assertions evaluated on this thread (the CLI, tests), with their compiled expressions. */
  jsonQueries: JsonQueryCheck;
}

export const createProbeCaches = (options: { rdapBootstrapUrl?: string } = {}): ProbeCaches => ({
  rdapBootstrap: new RdapBootstrap(options.rdapBootstrapUrl),
  jsonQueries: createJsonQueryCheck(),
});
