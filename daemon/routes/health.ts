import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { AppError } from '../errors.js';
import { VERSION } from '../version.js';
import { route, type RouteSpec } from '../http/route.js';

export const healthRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/health',
    permission: 'public',
    response: 'Health',
    summary: 'Liveness: answers once the daemon accepts requests.',
    handler: async ({ deps }) => ({ status: 'ok', version: VERSION, database: deps.db.kind }),
  }),
  route({
    method: 'GET',
    path: '/ready',
    permission: 'public',
    response: 'Health',
    summary:
      'Readiness: 200 when the database answers (and, after a failed write, takes a trial write), migrations are done and the daemon is not draining; 503 otherwise.',
    handler: async ({ deps }) => {
      // Migrations run before the app serves anything, so answering here means they are done.
      if (deps.lifecycle.draining) throw new AppError('UNAVAILABLE', 'The daemon is shutting down.');
      try {
        await Promise.race([sql`select 1`.execute(deps.db.kysely), delay(2000, undefined, { ref: false }).then(() => Promise.reject(new Error('timeout')))]);
      } catch {
        throw new AppError('UNAVAILABLE', 'The database does not answer.');
      }
      // Reads may work while writes fail (a full disk): then a trial write decides.
      const writeFault = await deps.caches.writeHealth.probe(deps.db.kysely);
      if (writeFault) throw new AppError('UNAVAILABLE', `The database cannot be written: ${writeFault}.`);
      return { status: 'ready', version: VERSION, database: deps.db.kind };
    },
  }),
];
