import { sqlDatabaseCheckType } from './sql-database.js';

/** A MySQL or MariaDB server. */
export const mysqlCheck = sqlDatabaseCheckType({
  type: 'mysql',
  title: 'MySQL / MariaDB',
  port: 3306,
  databaseMeans: 'The database (schema) to use.',
  sample: { name: 'Shop database', target: 'mysql.example.com', database: 'shop', username: 'monitor', query: 'SELECT 1' },
});
