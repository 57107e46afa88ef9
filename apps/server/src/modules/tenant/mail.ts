/**
 * The team invitation e-mail (API.md §3: best effort). Sent through the operator's SMTP server
 * (`SMTP_*`) with nodemailer; without SMTP_HOST nothing is sent. A failure is logged and never undoes
 * the invitation, which exists either way.
 */
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../config.js';

export interface Invitation {
  to: string;
  inviterName: string;
  inviterEmail: string;
}

export async function sendInvitation(smtp: SmtpConfig | null, invite: Invitation): Promise<boolean> {
  if (!smtp) return false;
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({
      from: smtp.from,
      to: invite.to,
      subject: `${invite.inviterName} invited you to a team on Lectern`,
      text:
        `${invite.inviterName} (${invite.inviterEmail}) invited you to join their team on Lectern.\n\n` +
        'Sign in and open Settings → Team to accept or refuse the invitation.\n',
    });
    return true;
  } finally {
    transport.close();
  }
}
