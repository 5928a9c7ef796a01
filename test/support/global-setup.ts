import type { TestProject } from 'vitest/node';
import pg from 'pg';

/** The PostgreSQL server the integration suites run against, or why there is none. */
async function findPostgres(): Promise<{ url?: string; reason?: string }> {
  const url = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url };
  } catch (error) {
    return { reason: `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} did not answer: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const found = await findPostgres();
  if (!found.url) {
    if (process.env.CI === 'true') throw new Error(`CI=true requires PostgreSQL: ${found.reason}`);
    console.warn(`[svc tests] PostgreSQL suites skipped: ${found.reason}`);
  }
  project.provide('pgUrl', found.url ?? '');
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
