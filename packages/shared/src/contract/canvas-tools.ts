/** `/v1/canvas` routes that serve the agent tool components (API.md §13): the ExeSQL connection test. */
import { z } from 'zod';
import { route, routeChecked } from './route.js';

/**
 * Database kinds ExeSQL connects to. `mssql` (API.md: optional) goes through tedious and is not
 * tested against a live SQL Server (none is available where Lectern is tested).
 */
export const exeSqlDbTypes = ['mysql', 'mariadb', 'oceanbase', 'postgres', 'mssql'] as const;

export const canvasToolsContract = {
  testDbConnect: route({
    method: 'POST',
    path: '/v1/canvas/test_db_connect',
    auth: 'login',
    body: z.object({
      // checked by the route: an unknown kind answers 101 "Unsupported database type."
      db_type: routeChecked<(typeof exeSqlDbTypes)[number]>({ required: true }),
      database: z.string(),
      username: z.string(),
      host: z.string(),
      // a number, or digits as text (the editor's form sends either)
      port: routeChecked<number | string>({ required: true }),
      password: z.string(),
    }),
    data: z.literal('Database Connection Successful!'),
  }),
};
