import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { AlertSettings } from './alert-settings';

/**
 * The connector's one mailer: nodemailer over the tenant's SMTP server (`alerts.email.smtp`), the
 * same transport for the alert digests (./channels.ts) and the month's e-mail to the accountant
 * (connector/month/accountant-mail.ts). `send` resolves once the server accepted the message for
 * every recipient and throws otherwise, saying whether the server may have taken it.
 */

export type SmtpSettings = NonNullable<AlertSettings['email']>['smtp'];

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
}

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  attachments?: MailAttachment[];
  /** A Message-ID of our own (`<...@host>`): the same message sent twice is recognisable as one. */
  messageId?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * Thrown when the message did not go. `maybeDelivered`: the server stopped answering after the
 * message's data was sent (a timeout or a cut connection at the end), so it may have kept it.
 */
export class MailNotSent extends Error {
  constructor(
    message: string,
    readonly maybeDelivered: boolean,
  ) {
    super(message);
    this.name = 'MailNotSent';
  }
}

/** nodemailer's codes of a failure before any of the message was sent (address, DNS, login, TLS). */
const BEFORE_MESSAGE = new Set(['EENVELOPE', 'EMESSAGE', 'EDNS', 'EAUTH', 'ETLS', 'EREQUIRETLS']);

/** Waits that end before the server has heard anything of the message (nodemailer's timeoutType). */
const EARLY_TIMEOUTS = new Set(['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT']);

/**
 * Whether a failed send may still have reached the mailbox. Not when the server answered with a
 * refusal, nor when the failure came before the server heard the message (an address refused, no
 * DNS, no connection, no greeting, the login or TLS refused). A line cut or silent later (nodemailer
 * says "CONN" whatever the step) may have come after the message's data: the safe answer is yes.
 */
export function mayHaveBeenDelivered(error: unknown): boolean {
  const { code, responseCode, syscall, timeoutType } = error as { code?: string; responseCode?: number; syscall?: string; timeoutType?: string };
  if (typeof responseCode === 'number') return false;
  if (code !== undefined && BEFORE_MESSAGE.has(code)) return false;
  if (code === 'ESOCKET' && syscall === 'connect') return false;
  if (code === 'ETIMEDOUT' && timeoutType !== undefined && EARLY_TIMEOUTS.has(timeoutType)) return false;
  return true;
}

export function smtpMailer(smtp: SmtpSettings, from: string): Mailer {
  // nodemailer (12 MB of RSS) is loaded with the first message, not with every connector that could send one.
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  const transporter = (): Promise<Transporter<SMTPTransport.SentMessageInfo>> =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        requireTLS: smtp.requireTls,
        ...(smtp.user !== undefined ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
        connectionTimeout: smtp.timeoutMs,
        greetingTimeout: smtp.timeoutMs,
        socketTimeout: smtp.timeoutMs,
      }),
    ));
  return {
    async send(mail) {
      let info: { messageId: string; rejected: unknown[]; accepted: unknown[] };
      try {
        info = await (await transporter()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments, ...(mail.messageId ? { messageId: mail.messageId } : {}) });
      } catch (error) {
        throw new MailNotSent((error as Error).message, mayHaveBeenDelivered(error));
      }
      if (info.rejected.length > 0) throw new MailNotSent(`the SMTP server refused ${info.rejected.map(String).join(', ')}`, info.accepted.length > 0);
      return { messageId: info.messageId };
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}
