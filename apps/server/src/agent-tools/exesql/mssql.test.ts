import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../net/index.js';
import { runTool, testDeps } from '../testing/invoke.js';
import { testConnection } from './drivers.js';
import { exeSqlTool } from './tool.js';

/**
 * ExeSQL `db_type: "mssql"` (tedious). No SQL Server is available here, so this checks the driver's
 * behaviour up to the server's answer: a closed port fails with the component's connection error
 * within the time limit, and a server that takes the connection receives a real TDS pre-login packet
 * (packet type 0x12) — then fails cleanly when it hangs up or never answers.
 */

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A TCP stand-in that records the first bytes of each connection, then hangs up or stays silent. */
async function tdsListener(mode: 'hang-up' | 'silent') {
  const packets: Buffer[] = [];
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.once('data', (data) => {
      packets.push(data);
      if (mode === 'hang-up') socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, packets, sockets };
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const target = (port: number) => ({
  db_type: 'mssql',
  host: '127.0.0.1',
  port,
  database: 'sales',
  username: 'sa',
  password: 'Secret-1',
});

describe('ExeSQL on SQL Server (tedious)', () => {
  const tool = exeSqlTool(testDeps({}, { timeoutMs: 1500 }));

  it('a closed port fails with the connection error at once', async () => {
    const started = Date.now();
    const run = await runTool(tool, { params: target(await closedPort()), args: { sql: 'SELECT 1' } });
    expect(run.error).toMatch(/^Database Connection Failed! \n.*(ECONNREFUSED|Failed to connect)/s);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('sends a TDS pre-login packet (type 0x12) to the server, and fails cleanly when it hangs up', async () => {
    const tds = await tdsListener('hang-up');
    const run = await runTool(tool, { params: target(tds.port), args: { sql: 'SELECT 1' } });
    expect(run.error).toMatch(/^Database Connection Failed! \n/);
    expect(tds.packets.length).toBe(1);
    const packet = tds.packets[0];
    expect(packet[0]).toBe(0x12); // PRELOGIN
    expect(packet[1] & 0x01).toBe(1); // status: end of message
    expect(packet.readUInt16BE(2)).toBe(packet.length); // the header's length is the packet's
  });

  it('a server that never answers the pre-login fails within the connect time limit', async () => {
    const tds = await tdsListener('silent');
    const started = Date.now();
    const run = await runTool(tool, { params: target(tds.port), args: { sql: 'SELECT 1' } });
    const elapsed = Date.now() - started;
    expect(run.error).toMatch(/^Database Connection Failed! \n.*(timeout|Failed to connect)/is);
    expect(tds.packets[0]?.[0]).toBe(0x12);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(4500);
  });

  it('the connection test (test_db_connect) reports the reason; the outbound guard refuses loopback', async () => {
    const port = await closedPort();
    const policy = createPolicy({ ssrfAllow: '127.0.0.1' });
    const t = {
      dbType: 'mssql' as const,
      host: '127.0.0.1',
      port,
      database: 'x',
      username: 'sa',
      password: 'p',
    };
    await expect(
      testConnection(t, { policy, statementTimeoutMs: 1000, connectTimeoutMs: 1000 }),
    ).rejects.toThrow(/ECONNREFUSED|Failed to connect/);
    const strict = exeSqlTool(testDeps({}, { policy: createPolicy({}) }));
    const tds = await tdsListener('hang-up');
    const refused = await runTool(strict, { params: target(tds.port), args: { sql: 'SELECT 1' } });
    expect(refused.error).toMatch(/^Database Connection Failed! \n/);
    expect(tds.packets.length).toBe(0);
  });
});
