/**
 * Teams over HTTP (API.md §3, §1.6) with three accounts: invitation (mail through a local SMTP
 * stand-in, `smtp-server`), agree, refuse, remove, quit; and what sharing means: a `team` KB is
 * listed with its owner's profile and usable by `normal` members only, a `me` KB never, and a member
 * who quits or is removed loses access on the next call.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb, listDocs, upload } from '../kb/test-support.js';

interface Mail {
  to: string[];
  body: string;
}

describe('teams (API.md §3) and sharing (§1.6)', () => {
  let server: TestServer;
  let smtp: SMTPServer;
  const mails: Mail[] = [];
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            body: Buffer.concat(parts).toString(),
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    server = await startTestServer({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_SECURE: 'false' });
    owner = await newUser(server, 'owner');
    member = await newUser(server, 'member');
    outsider = await newUser(server, 'outsider');
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const kbNames = async (user: TestUser) => {
    const res = await call<{ kbs: Array<{ name: string; nickname: string | null }> }>(server, '/v1/kb/list', {
      token: user.token,
      body: {},
    });
    return res.body.data!.kbs;
  };

  it('runs the whole lifecycle: invite (mail), agree, share, quit, remove, refuse', async () => {
    const teamKb = await createKb(server, owner.token, { name: 'Shared', permission: 'team' });
    await createKb(server, owner.token, { name: 'Private' });
    await upload(server, owner.token, { kb_id: teamKb }, [{ name: 'facts.txt', data: 'the team knows' }]);

    const invite = await call(server, `/v1/tenant/${owner.id}/user`, {
      token: owner.token,
      body: { email: member.email.toUpperCase() },
    });
    expect(invite.body).toMatchObject({
      code: 0,
      data: { id: member.id, email: member.email, nickname: 'member' },
    });
    expect(mails.at(-1)!.to).toEqual([member.email]);
    expect(mails.at(-1)!.body).toContain('owner');

    // Pending: listed as invite, shares nothing yet.
    const pending = await call<Array<{ tenant_id: string; role: string }>>(server, '/v1/tenant/list', {
      token: member.token,
    });
    expect(pending.body.data!.find((t) => t.tenant_id === owner.id)!.role).toBe('invite');
    expect((await kbNames(member)).map((k) => k.name)).not.toContain('Shared');

    const members = await call<Array<{ user_id: string; role: string }>>(
      server,
      `/v1/tenant/${owner.id}/user/list`,
      {
        token: owner.token,
      },
    );
    expect(members.body.data!.map((m) => [m.user_id, m.role])).toEqual([[member.id, 'invite']]);

    expect(
      (await call(server, `/v1/tenant/agree/${owner.id}`, { token: member.token, method: 'PUT' })).body.code,
    ).toBe(0);
    const shared = await kbNames(member);
    expect(shared.map((k) => k.name)).toContain('Shared');
    expect(shared.map((k) => k.name)).not.toContain('Private');
    expect(shared.find((k) => k.name === 'Shared')!.nickname).toBe('owner');

    // A member works in the shared KB: uploads, lists, uses it in an assistant.
    const up = await upload(server, member.token, { kb_id: teamKb }, [
      { name: 'mine.txt', data: 'member adds' },
    ]);
    expect(up.body.code, up.body.message).toBe(0);
    expect((await listDocs(server, member.token, teamKb)).map((d) => d.name).sort()).toEqual([
      'facts.txt',
      'mine.txt',
    ]);
    const dialog = await call(server, '/v1/dialog/set', {
      token: member.token,
      body: {
        name: 'Uses shared',
        kb_ids: [teamKb],
        prompt_config: { system: 'Use {knowledge}', parameters: [{ key: 'knowledge', optional: false }] },
      },
    });
    expect(dialog.body.code, dialog.body.message).toBe(0);

    // The outsider sees nothing and changes nothing.
    expect((await kbNames(outsider)).map((k) => k.name)).not.toContain('Shared');
    expect(
      (await call(server, `/v1/tenant/${owner.id}/user/list`, { token: outsider.token })).body.code,
    ).toBe(109);
    expect(
      (
        await call(server, `/v1/tenant/${owner.id}/user`, {
          token: outsider.token,
          body: { email: outsider.email },
        })
      ).body.code,
    ).toBe(109);
    expect(
      (
        await call(server, `/v1/tenant/${owner.id}/user/${member.id}`, {
          token: outsider.token,
          method: 'DELETE',
        })
      ).body.code,
    ).toBe(109);
    expect((await call(server, `/v1/tenant/${owner.id}/user/list`, { token: member.token })).body.code).toBe(
      109,
    );

    // Quit: access goes at once.
    expect(
      (
        await call(server, `/v1/tenant/${owner.id}/user/${member.id}`, {
          token: member.token,
          method: 'DELETE',
        })
      ).body.code,
    ).toBe(0);
    expect((await kbNames(member)).map((k) => k.name)).not.toContain('Shared');
    expect(
      (await call(server, `/v1/document/list?kb_id=${teamKb}`, { token: member.token, body: {} })).body.code,
    ).not.toBe(0);

    // Invited again and removed by the owner.
    await call(server, `/v1/tenant/${owner.id}/user`, { token: owner.token, body: { email: member.email } });
    await call(server, `/v1/tenant/agree/${owner.id}`, { token: member.token, method: 'PUT' });
    expect((await kbNames(member)).map((k) => k.name)).toContain('Shared');
    expect(
      (
        await call(server, `/v1/tenant/${owner.id}/user/${member.id}`, {
          token: owner.token,
          method: 'DELETE',
        })
      ).body.code,
    ).toBe(0);
    expect((await kbNames(member)).map((k) => k.name)).not.toContain('Shared');
    const retrieval = await call(server, '/v1/chunk/retrieval_test', {
      token: member.token,
      body: { kb_id: [teamKb], question: 'team' },
    });
    expect(retrieval.body.code).not.toBe(0);

    // Refusing = deleting one's own invitation.
    await call(server, `/v1/tenant/${owner.id}/user`, {
      token: owner.token,
      body: { email: outsider.email },
    });
    expect(
      (
        await call(server, `/v1/tenant/${owner.id}/user/${outsider.id}`, {
          token: outsider.token,
          method: 'DELETE',
        })
      ).body.code,
    ).toBe(0);
    const outsiderTeams = await call<Array<{ tenant_id: string }>>(server, '/v1/tenant/list', {
      token: outsider.token,
    });
    expect(outsiderTeams.body.data!.map((t) => t.tenant_id)).toEqual([outsider.id]);
    expect(
      (await call(server, `/v1/tenant/agree/${owner.id}`, { token: outsider.token, method: 'PUT' })).body
        .code,
    ).toBe(102);
  });

  it('answers the invitation errors of API.md §3', async () => {
    const inviteAs = (email: string) =>
      call(server, `/v1/tenant/${owner.id}/user`, { token: owner.token, body: { email } });
    expect((await inviteAs('nobody@example.com')).body).toMatchObject({
      code: 102,
      message: 'User not found.',
    });
    expect((await inviteAs(owner.email)).body).toMatchObject({
      code: 102,
      message: `${owner.email} is the owner of the team.`,
    });
    await inviteAs(member.email);
    expect((await inviteAs(member.email)).body).toMatchObject({
      code: 102,
      message: `${member.email} is already in the team.`,
    });
    expect(
      (await call(server, `/v1/tenant/${owner.id}/user`, { token: owner.token, body: {} })).body.code,
    ).toBe(101);
    // The owner's own membership never goes.
    expect(
      (
        await call(server, `/v1/tenant/${owner.id}/user/${owner.id}`, {
          token: owner.token,
          method: 'DELETE',
        })
      ).body.code,
    ).toBe(109);
  });

  it('keeps the invitation when the mail cannot be sent (best effort)', async () => {
    const offline = await startTestServer({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '1' });
    try {
      const a = await newUser(offline, 'a');
      const b = await newUser(offline, 'b');
      const res = await call(offline, `/v1/tenant/${a.id}/user`, {
        token: a.token,
        body: { email: b.email },
      });
      expect(res.body.code).toBe(0);
      const teams = await call<Array<{ tenant_id: string; role: string }>>(offline, '/v1/tenant/list', {
        token: b.token,
      });
      expect(teams.body.data!.find((t) => t.tenant_id === a.id)!.role).toBe('invite');
    } finally {
      await offline.close();
    }
  });
});
