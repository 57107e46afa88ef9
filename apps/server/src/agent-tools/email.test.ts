import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILED, emailTool } from './email.js';
import { runTool, testDeps } from './testing/invoke.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
}

/** A self-signed certificate for 127.0.0.1, made with openssl for this run. */
function selfSigned(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smtp-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const pair = {
    key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return pair;
}

async function listen(server: SMTPServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
}

/** Email against local SMTP servers (smtp-server): STARTTLS + login, a wrong password, no TLS offered, nobody listening. */
describe('Email tool', () => {
  const { key, cert } = selfSigned();
  const inbox: Received[] = [];
  const tls = new SMTPServer({
    key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, done) {
      if (auth.username === 'bot@example.com' && auth.password === 'app-code')
        return done(null, { user: auth.username });
      return done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
        });
        done();
      });
    },
  });
  const plain = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    onData: (s, _x, done) => s.resume().on('end', () => done()),
  });
  let tlsPort = 0;
  let plainPort = 0;
  const tool = emailTool(testDeps({}, { smtpCa: cert, timeoutMs: 3000 }));
  beforeAll(async () => {
    tlsPort = await listen(tls);
    plainPort = await listen(plain);
  });
  afterAll(async () => {
    await new Promise<void>((r) => tls.close(() => r()));
    await new Promise<void>((r) => plain.close(() => r()));
  });
  const account = (port: number, password = 'app-code') => ({
    smtp_server: '127.0.0.1',
    smtp_port: port,
    email: 'bot@example.com',
    password,
    sender_name: 'Lectern Bot 机器人',
  });

  it('sends an HTML message over STARTTLS with login, CC recipients and rendered references', async () => {
    const run = await runTool(tool, {
      params: account(tlsPort),
      args: {
        to_email: '{sys.query}',
        cc_email: 'a@example.com, b@example.com',
        subject: 'Report für {who}',
        content: '<p>Hello <b>{who}</b></p>',
      },
      refs: { 'sys.query': 'boss@example.com', who: 'Ana' },
    });
    expect(run.error).toBeUndefined();
    expect(run.result).toBe(true);
    expect(run.outputs).toEqual({ success: true });
    const mail = inbox.at(-1)!;
    expect(mail.secure).toBe(true);
    expect(mail.from).toBe('bot@example.com');
    expect(mail.to).toEqual(['boss@example.com', 'a@example.com', 'b@example.com']);
    const parsed = await PostalMime.parse(mail.raw);
    expect(parsed.subject).toBe('Report für Ana');
    expect(parsed.html).toContain('<p>Hello <b>Ana</b></p>');
    expect(parsed.from).toMatchObject({ address: 'bot@example.com', name: 'Lectern Bot 机器人' });
  });

  it('fails a wrong password at once with the authentication message (no retry)', async () => {
    const run = await runTool(tool, {
      params: { ...account(tlsPort, 'wrong'), max_retries: 2 },
      args: { to_email: 'x@example.com' },
    });
    expect(run.error).toBe(AUTH_FAILED);
    expect(run.outputs).toEqual({ success: false });
    expect(run.sleeps).toEqual([]);
  });

  it('refuses a server that offers no STARTTLS, and reports an unreachable server after the retries', async () => {
    const noTls = await runTool(tool, { params: account(plainPort), args: { to_email: 'x@example.com' } });
    expect(noTls.error).toMatch(/^SMTP error occurred: .*STARTTLS/i);
    const closed = await runTool(tool, {
      params: { ...account(1), max_retries: 1, delay_after_error: 0 },
      args: { to_email: 'x@example.com' },
    });
    expect(closed.error).toMatch(/^Failed to connect to SMTP server 127\.0\.0\.1:1/);
    expect(closed.sleeps).toEqual([0]);
  });

  it('does nothing for an empty recipient and names missing settings', async () => {
    const run = await runTool(tool, { params: account(tlsPort), args: { to_email: '' } });
    expect(run).toMatchObject({ result: '', outputs: { success: false } });
    expect(run.error).toBeUndefined();
    expect(tool.check?.({ smtp_port: 'x' })).toHaveLength(5);
  });
});
