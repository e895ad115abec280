import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import { outboxMails } from '../db/schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** 'smtp' hands mail to a server; 'outbox' keeps it in the outbox table (embedded/development). */
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/** Without SMTP_URL, mail is stored in `outbox_mails` and logged (never the body: it may hold a link). */
export function outboxMailer(db: Db, log: FastifyBaseLogger): Mailer {
  return {
    kind: 'outbox',
    async send(mail) {
      await db.insert(outboxMails).values(mail);
      log.info({ to: mail.to, subject: mail.subject }, 'mail stored in the outbox (no SMTP_URL)');
    },
  };
}
