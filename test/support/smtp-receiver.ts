import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test's process (the `smtp-server` package): plain SMTP with login, that
 * keeps what arrived and reads it back as a mail client would: headers (RFC 2047 words decoded), the
 * text part, and every attachment (base64 or quoted-printable) as bytes with its file name and type.
 * `refuseNext` answers the next messages' data with a permanent refusal (552), as a full mailbox;
 * `silentNext` never answers their data (the line goes quiet after the message: did it arrive?).
 */

export interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  text: string;
  attachments: ReceivedAttachment[];
}

export interface SmtpReceiver {
  port: number;
  user: string;
  password: string;
  mails: ReceivedMail[];
  /** Messages whose whole data arrived and got no answer (silentNext). */
  unanswered: ReceivedMail[];
  /** The next `count` messages (to `recipient`, when given) are refused. */
  refuseNext(count: number, recipient?: string): void;
  /** The next `count` messages (to `recipient`, when given) get no answer after their data. */
  silentNext(count: number, recipient?: string): void;
  close(): Promise<void>;
}

export async function startSmtpReceiver(login = { user: 'loja@loja.pt', password: 'smtp-pw' }): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const refuse = { count: 0, recipient: undefined as string | undefined };
  const silent = { count: 0, recipient: undefined as string | undefined };
  const takes = (rule: { count: number; recipient?: string }, to: string[]): boolean => {
    if (rule.count <= 0 || (rule.recipient !== undefined && !to.includes(rule.recipient))) return false;
    rule.count -= 1;
    return true;
  };
  const unanswered: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    // A silent answer is cut by the client's own timeout, never by this server.
    socketTimeout: 120_000,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.password) return callback(null, { user: auth.username });
      callback(new Error('bad credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const raw = Buffer.concat(chunks).toString('latin1');
        const mail = { ...parseMessage(raw), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, raw };
        if (takes(silent, to)) return void unanswered.push(mail);
        if (takes(refuse, to)) return callback(Object.assign(new Error('mailbox full'), { responseCode: 552 }));
        mails.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    user: login.user,
    password: login.password,
    mails,
    unanswered,
    refuseNext: (count, recipient) => void Object.assign(refuse, { count, recipient }),
    silentNext: (count, recipient) => void Object.assign(silent, { count, recipient }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at + 4);
  const headers = new Map<string, string>();
  // Folded lines (a line starting with white space) continue the header above.
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** A header parameter (`boundary`, `filename`, `name`), quoted or not, or RFC 2231's `name*=utf-8''...`. */
function param(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const extended = new RegExp(`;\\s*${name}\\*=([^']*)'[^']*'([^;]+)`, 'i').exec(header);
  if (extended) return decodeURIComponent(extended[2].trim());
  const plain = new RegExp(`;\\s*${name}=("([^"]*)"|[^;\\s]+)`, 'i').exec(header);
  return plain ? decodeWords(plain[2] ?? plain[1]) : undefined;
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`); white space between two of them is dropped. */
export function decodeWords(text: string): string {
  return text.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, charset: string, kind: string, data: string) => {
    const bytes = kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : quotedPrintable(data.replace(/_/g, ' '));
    return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
  });
}

function quotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): Buffer {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return quotedPrintable(part.body);
  return Buffer.from(part.body, 'latin1');
}

function leaves(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  if (!/^multipart\//i.test(type)) return [part];
  const boundary = param(type, 'boundary');
  if (!boundary) return [part];
  const pieces = part.body.split(`--${boundary}`);
  // The first piece is the preamble, the last starts with "--" (the close delimiter).
  return pieces.slice(1, -1).flatMap((piece) => leaves(splitPart(piece.replace(/^\r\n/, '').replace(/\r\n$/, ''))));
}

function parseMessage(raw: string): Omit<ReceivedMail, 'from' | 'to' | 'raw'> {
  const message = splitPart(raw);
  const attachments: ReceivedAttachment[] = [];
  let text = '';
  for (const part of leaves(message)) {
    const type = part.headers.get('content-type') ?? 'text/plain';
    const disposition = part.headers.get('content-disposition');
    const filename = param(disposition, 'filename') ?? param(type, 'name');
    if (filename !== undefined || /^attachment/i.test(disposition ?? '')) {
      attachments.push({ filename: filename ?? '', contentType: type.split(';')[0].trim().toLowerCase(), content: decodeBody(part) });
    } else if (/^text\/plain/i.test(type) && text === '') {
      text = decodeBody(part).toString(/charset="?utf-8/i.test(type) ? 'utf8' : 'latin1');
    }
  }
  return { headers: message.headers, subject: decodeWords(message.headers.get('subject') ?? ''), text, attachments };
}
