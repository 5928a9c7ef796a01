import type { CheckDefinition } from '../checks/index.js';
import { networkFailure } from './connection-errors.js';
import { defineProbe, ProbeFailure, type Probe, type ProbeContext } from './probe.js';
import { failureMessage } from './failure-message.js';
import { resolveTarget, type TargetAddress } from './target-address.js';
import { onAbort } from './abort.js';

/** The SQL check types: they share one config (database, username, query, TLS). */
export type SqlCheckType = 'postgres' | 'mysql' | 'mssql' | 'oracle';

/** An open, signed-in connection of one engine. */
export interface SqlSession {
  /** Runs the check's query and answers how many rows it returned. */
  query(sql: string): Promise<number>;
  /** Closes politely (after a successful run). */
  close(): Promise<void>;
  /** Drops the connection at once (on timeout). */
  destroy(): void;
}

/** What differs from one SQL engine to the next: its driver, and how it words its errors. */
export interface SqlEngine<T extends SqlCheckType> {
  type: T;
  defaultPort: number;
  /**
   * Connects and signs in. It must tear its socket down when `context.signal` aborts before the
   * session is returned (afterwards the shared code calls `destroy`).
   */
  connect(check: CheckDefinition<T>, target: TargetAddress, context: ProbeContext): Promise<SqlSession>;
  /** The engine's safe wording of a server error (authentication, unknown database...), if it is one. */
  describe(error: unknown, check: CheckDefinition<T>): string | undefined;
}

/**
 * The executor of a SQL check type: resolves the target through the egress policy, connects
 * and signs in with the engine's driver, runs the query when one is set, and closes. Failures
 * read `authentication failed for user "x"`, `connect ECONNREFUSED host:port` or
 * `query failed: ...`.
 */
export function defineSqlProbe<T extends SqlCheckType>(engine: SqlEngine<T>): Probe<T> {
  return defineProbe<T>({
    type: engine.type,
    async run(check, context) {
      const { config } = check as CheckDefinition<SqlCheckType>;
      const target = await resolveTarget(check.target, engine.defaultPort, context);
      let phase: 'connect' | 'query' = 'connect';
      let session: SqlSession | undefined;
      let stopListening = () => {};
      try {
        session = await engine.connect(check, target, context);
        const open = session;
        stopListening = onAbort(context.signal, () => open.destroy());
        if (!config.query) return { message: config.username ? `signed in as ${config.username}` : 'connected' };
        phase = 'query';
        const rows = await session.query(config.query);
        return { message: `query returned ${rows} ${rows === 1 ? 'row' : 'rows'}` };
      } catch (error) {
        if (context.signal.aborted) throw context.signal.reason;
        const network = networkFailure(error, target.host, target.port);
        if (network) throw network;
        const text = engine.describe(error, check) ?? failureMessage(error);
        throw new ProbeFailure(phase === 'query' ? `query failed: ${text}` : text);
      } finally {
        stopListening();
        // Closing politely is not part of the result: it is not awaited, and a failure to close
        // drops the connection instead.
        const open = session;
        if (open && !context.signal.aborted) open.close().catch(() => open.destroy());
      }
    },
  });
}
