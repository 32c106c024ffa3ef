import nodemailer from 'nodemailer';
import type { OutgoingMail } from './message.js';
import type { MailTransport } from './transport.js';

export interface SmtpTransportOptions {
  host: string;
  port?: number;
  /** Implicit TLS (port 465); otherwise STARTTLS is used when the server offers it. */
  secure?: boolean;
  user?: string;
  password?: string;
  /** Refuse servers whose certificate does not verify (default true). */
  rejectUnauthorized?: boolean;
  /** Milliseconds to wait for a connection, the greeting and each reply (default 10 s, 10 s, 30 s). */
  connectionTimeout?: number;
  greetingTimeout?: number;
  socketTimeout?: number;
}

/** Reads `smtp://user:pass@host:port` (or `smtps://…`, implicit TLS); user and password are URL-decoded. */
export function parseSmtpUrl(url: string): SmtpTransportOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The SMTP URL must look like smtp://user:password@host:port.');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error('The SMTP URL must start with smtp:// or smtps://.');
  if (!parsed.hostname) throw new Error('The SMTP URL names no host.');
  const secure = parsed.protocol === 'smtps:';
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    user: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

/** Strips line breaks from header values, so a value can never start another header. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

/** Sends mail through an SMTP relay with nodemailer (one pooled connection set per transport). */
export function smtpTransport(options: string | SmtpTransportOptions): MailTransport {
  const settings = typeof options === 'string' ? parseSmtpUrl(options) : options;
  const transporter = nodemailer.createTransport({
    host: settings.host,
    port: settings.port ?? (settings.secure ? 465 : 587),
    secure: settings.secure ?? false,
    auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    tls: { rejectUnauthorized: settings.rejectUnauthorized ?? true },
    connectionTimeout: settings.connectionTimeout ?? 10_000,
    greetingTimeout: settings.greetingTimeout ?? 10_000,
    socketTimeout: settings.socketTimeout ?? 30_000,
    pool: true,
    maxConnections: 3,
  });
  return {
    name: 'smtp',
    async send(mail: OutgoingMail) {
      const info = await transporter.sendMail({
        from: oneLine(mail.from),
        to: mail.to.map(oneLine),
        cc: mail.cc.length ? mail.cc.map(oneLine) : undefined,
        bcc: mail.bcc.length ? mail.bcc.map(oneLine) : undefined,
        replyTo: mail.replyTo.length ? mail.replyTo.map(oneLine) : undefined,
        subject: oneLine(mail.subject),
        ...(mail.html ? { html: mail.body } : { text: mail.body }),
        headers: mail.headers.map(([key, value]) => ({ key: oneLine(key), value: oneLine(value) })),
        attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      return { messageId: info.messageId };
    },
    async close() {
      transporter.close();
    },
  };
}
