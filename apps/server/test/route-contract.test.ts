/**
 * Every `/v1` route the server registers has an entry in the shared contract
 * (packages/shared/src/contract), every entry is registered, and each entry's `auth` agrees with how
 * the route is registered (`config.public`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, routeKey } from '@lectern/shared';
import type { RegisteredRoute } from '../src/http/contract-check.js';
import { startTestServer, type TestServer } from './harness.js';

const API_PATH = /^\/(v1|api)(\/|$)/;

describe('route contract', () => {
  let server: TestServer;
  let registered: RegisteredRoute[];

  beforeAll(async () => {
    server = await startTestServer();
    registered = (server.app.contractCheck?.routes ?? []).filter((r) => API_PATH.test(r.path));
  });
  afterAll(() => server.close());

  it('sees the routes the app registers', () => {
    // Guards the test itself: without the onRoute record every check below would pass vacuously.
    expect(registered.length).toBeGreaterThan(80);
  });

  it('has a contract entry for every registered /v1 route', () => {
    const declared = new Set(allRoutes.map((r) => routeKey(r.method, r.path)));
    const missing = registered.map((r) => routeKey(r.method, r.path)).filter((k) => !declared.has(k));
    expect(missing, 'registered routes without a contract entry').toEqual([]);
  });

  it('registers every route the contract declares', () => {
    const served = new Set(registered.map((r) => routeKey(r.method, r.path)));
    const unserved = allRoutes.map((r) => routeKey(r.method, r.path)).filter((k) => !served.has(k));
    expect(unserved, 'contract entries the server does not register').toEqual([]);
  });

  it('declares each route once', () => {
    const keys = allRoutes.map((r) => routeKey(r.method, r.path));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('declares who may call each route as it is registered', () => {
    const byKey = new Map(registered.map((r) => [routeKey(r.method, r.path), r]));
    const wrong = allRoutes
      .filter((entry) => {
        const r = byKey.get(routeKey(entry.method, entry.path));
        return r !== undefined && r.public !== (entry.auth !== 'login');
      })
      .map((entry) => `${routeKey(entry.method, entry.path)} auth=${entry.auth}`);
    expect(wrong).toEqual([]);
  });

  it('gives GET and DELETE routes no JSON body schema except where the route reads one', () => {
    // DELETE /v1/api/document reads its body (API.md §10); no GET route reads a body.
    const wrong = allRoutes
      .filter((r) => r.method === 'GET' && (r.body !== undefined || r.form !== undefined))
      .map((r) => routeKey(r.method, r.path));
    expect(wrong).toEqual([]);
  });
});
