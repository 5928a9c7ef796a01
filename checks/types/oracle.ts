import { sqlDatabaseCheckType } from './sql-database.js';

/** An Oracle Database. */
export const oracleCheck = sqlDatabaseCheckType({
  type: 'oracle',
  title: 'Oracle Database',
  port: 1521,
  databaseMeans: 'The service name to connect to (e.g. ORCLPDB1).',
  sample: { name: 'Billing database', target: 'oracle.example.com:1521', database: 'BILLING', username: 'monitor', query: 'SELECT 1 FROM DUAL' },
});
