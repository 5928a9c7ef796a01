import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { ignoreTlsErrors, invert, password, useTls, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

interface SqlEngine<Name extends string> {
  type: Name;
  title: string;
  port: number;
  /** What `database` names for this engine (Oracle calls it a service name). */
  databaseMeans: string;
  sample: { name: string; target: string; database: string; username: string; query: string };
}

/**
 * Declares a SQL database check. Connection strings are split by the importers into the
 * target (host and port) and these fields; the password is a secret reference, whose value
 * the runner puts in at run time.
 */
export function sqlDatabaseCheckType<const Name extends string>(engine: SqlEngine<Name>) {
  const { sample } = engine;
  return defineCheckType({
    type: engine.type,
    title: engine.title,
    description: `Connects to a ${engine.title} server and, when a query is set, runs it; the check fails on any error.`,
    target: hostPortTarget(`The database server (port ${engine.port} by default).`, `db.example.com:${engine.port}`, engine.port),
    config: z.strictObject({
      database: z.string().min(1).max(128).optional().describe(engine.databaseMeans),
      username,
      password,
      query: z.string().min(1).max(65_536).optional().describe('A query to run, e.g. SELECT 1; without one the check only connects and signs in.'),
      useTls,
      ignoreTlsErrors,
      invert,
    }),
    sample: {
      name: sample.name,
      target: sample.target,
      config: { database: sample.database, username: sample.username, query: sample.query, useTls: true },
    },
  });
}
