import { sqlDatabaseCheckType } from './sql-database.js';

/** A Microsoft SQL Server. */
export const mssqlCheck = sqlDatabaseCheckType({
  type: 'mssql',
  title: 'Microsoft SQL Server',
  port: 1433,
  databaseMeans: 'The database to connect to (Initial Catalog).',
  sample: { name: 'ERP database', target: 'sql.example.com:1433', database: 'erp', username: 'monitor', query: 'SELECT 1' },
});
