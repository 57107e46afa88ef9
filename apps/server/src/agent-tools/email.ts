/**
 * Email (AGENTS.md §10.6): an HTML message through the sender's SMTP account with nodemailer. Port
 * 465 speaks TLS from the first byte, any other port must upgrade with STARTTLS (API.md §13.2 — an
 * improvement over RAGFlow, which always tries STARTTLS); login with the sender address and its
 * authorization code. The SMTP host is checked by the outbound guard and the connection pinned to the
 * checked address (the certificate is still checked against the host name). `LECTERN_EMAIL_SMTP_HOST`
 * / `LECTERN_EMAIL_SMTP_PORT` redirect every message to a test sink.
 */
import type { ToolComponent, ToolMeta } from '@lectern/agent-core';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { checkHost, isOutboundError } from '../net/index.js';
import type { ToolDeps } from './context.js';
import { timeLimitMs } from './context.js';
import { errorText, int, list, text } from './common/values.js';

const META: ToolMeta = {
  name: 'email',
  description:
    'The email tool sends an e-mail with HTML content to the given recipients (comma-separated CC addresses allowed).',
  parameters: {
    to_email: {
      type: 'string',
      description: 'The target email address.',
      default: '{sys.query}',
      required: true,
    },
    cc_email: {
      type: 'string',
      description: 'The other email addresses which will be the CC.',
      default: '',
      required: false,
    },
    content: { type: 'string', description: 'The content of the email.', default: '', required: false },
    subject: { type: 'string', description: 'The subject/title of the email.', default: '', required: false },
  },
};

export const AUTH_FAILED = 'SMTP Authentication failed. Please check your email and authorization code.';

export function emailTool(deps: ToolDeps): ToolComponent {
  return {
    componentName: 'Email',
    meta: () => META,
    check(params) {
      const reasons: string[] = [];
      for (const key of ['smtp_server', 'email', 'password', 'sender_name'])
        if (!text(params[key]).trim()) reasons.push(`\`${key}\` is required`);
      if (params.smtp_port !== undefined && !(int(params.smtp_port, 0) > 0))
        reasons.push('`smtp_port` must be a positive integer');
      return reasons;
    },
    async invoke(call) {
      const field = async (key: string) =>
        (await call.render(text(call.args[key] ?? call.params[key] ?? META.parameters[key].default))).trim();
      const to = await field('to_email');
      if (!to) {
        call.setOutput('success', false);
        return '';
      }
      const cc = list(await field('cc_email'));
      const host = (deps.env.LECTERN_EMAIL_SMTP_HOST || text(call.params.smtp_server)).trim();
      const port = int(deps.env.LECTERN_EMAIL_SMTP_PORT || call.params.smtp_port, 465);
      const sender = text(call.params.email).trim();
      const fail = (message: string): never => {
        call.setOutput('success', false);
        throw new Error(message);
      };
      if (!host || !sender) fail('Email: `smtp_server` and `email` are required.');
      let address: string;
      try {
        address = (await checkHost(deps.policy, host)).addresses[0].address;
      } catch (err) {
        return fail(
          isOutboundError(err) && err.refused
            ? err.message
            : `Failed to connect to SMTP server ${host}:${port}`,
        );
      }
      const timeoutMs = timeLimitMs(deps, 60);
      const transport = nodemailer.createTransport({
        host: address,
        port,
        secure: port === 465,
        requireTLS: port !== 465,
        auth: { user: sender, pass: text(call.params.password) },
        // SNI and the certificate check use the name the user gave, not the pinned address.
        tls: { ...(isIP(host) ? {} : { servername: host }), ...(deps.smtpCa ? { ca: deps.smtpCa } : {}) },
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      });
      const message = {
        from: { name: text(call.params.sender_name) || sender, address: sender },
        to,
        ...(cc.length ? { cc } : {}),
        subject: (await field('subject')) || 'No Subject',
        html: (await field('content')) || 'No content provided',
        textEncoding: 'base64' as const,
      };
      const attempts = Math.max(0, int(call.params.max_retries, 0)) + 1;
      let last = '';
      try {
        for (let i = 0; i < attempts; i++) {
          try {
            await transport.sendMail(message);
            call.setOutput('success', true);
            return true;
          } catch (err) {
            if (call.signal.aborted) throw err;
            const code = (err as { code?: string }).code;
            if (code === 'EAUTH') fail(AUTH_FAILED);
            last =
              code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EDNS'
                ? `Failed to connect to SMTP server ${host}:${port} (${errorText(err)})`
                : `SMTP error occurred: ${errorText(err)}`;
            if (i + 1 < attempts)
              await call.sleep(Math.max(0, Number(call.params.delay_after_error ?? 2) || 0) * 1000);
          }
        }
      } finally {
        transport.close();
      }
      return fail(last);
    },
  };
}
