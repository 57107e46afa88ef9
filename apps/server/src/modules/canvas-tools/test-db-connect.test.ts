import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';

/** POST /v1/canvas/test_db_connect (API.md §13) against the local MariaDB and PostgreSQL. */
describe('POST /v1/canvas/test_db_connect', () => {
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    user = await newUser(server, 'dbtest');
  });
  afterAll(() => server.close());
  const test = (body: unknown) => call(server, '/v1/canvas/test_db_connect', { token: user.token, body });
  const maria = {
    db_type: 'mariadb',
    database: 'mysql',
    username: 'root',
    host: '127.0.0.1',
    port: 3306,
    password: '',
  };
  const postgres = {
    db_type: 'postgres',
    database: 'postgres',
    username: 'postgres',
    host: '127.0.0.1',
    port: '5432',
    password: '',
  };

  it('connects to MariaDB (and as mysql) and to PostgreSQL', async () => {
    for (const body of [maria, { ...maria, db_type: 'mysql' }, postgres]) {
      const res = await test(body);
      expect(res.body, JSON.stringify(body)).toEqual({
        code: 0,
        message: 'success',
        data: 'Database Connection Successful!',
      });
    }
  });

  it('answers 105 with the driver reason, 101 for an unknown type or a missing field, 100 for a bad port', async () => {
    const denied = await test({ ...maria, username: 'nobody_here', password: 'bad' });
    expect(denied.body.code).toBe(105);
    expect(denied.body.message).toMatch(/Access denied/);
    const noDb = await test({ ...postgres, database: 'no_such_database_here' });
    expect(noDb.body).toMatchObject({ code: 105, message: expect.stringContaining('no_such_database_here') });
    expect((await test({ ...maria, db_type: 'oracle' })).body).toMatchObject({
      code: 101,
      message: 'Unsupported database type.',
    });
    expect((await test({ db_type: 'mysql', host: 'x' })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: database,username,port,password; ',
    });
    expect((await test({ ...maria, port: 'abc' })).body.code).toBe(100);
    expect((await call(server, '/v1/canvas/test_db_connect', { body: maria })).status).toBe(401);
  });
});
