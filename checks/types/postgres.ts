import { sqlDatabaseCheckType } from './sql-database.js';

/** A PostgreSQL server. */
export const postgresCheck = sqlDatabaseCheckType({
  type: 'postgres',
  title: 'PostgreSQL',
  port: 5432,
  databaseMeans: 'The database to connect to.',
  sample: { name: 'Orders database', target: 'pg.example.com:5432', database: 'orders', username: 'monitor', query: 'SELECT 1' },
});
