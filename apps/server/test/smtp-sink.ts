import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** RCPT TO addresses of the SMTP envelope. */
  recipients: string[];
  to: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/** Parsed headers (names in lower case, folded lines joined) and the body of one MIME entity. */
function splitEntity(entity: string) {
  const end = entity.indexOf('\n\n');
  const head = end === -1 ? entity : entity.slice(0, end);
  const body = end === -1 ? '' : entity.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const input = text.replace(/=\n/g, '');
  for (let at = 0; at < input.length; at++) {
    const hex = input.slice(at + 1, at + 3);
    if (input[at] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      at += 2;
    } else {
      bytes.push(...Buffer.from(input[at] as string, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes non-ASCII headers. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_word, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

/** Walks the MIME tree and keeps the text/plain and text/html leaves, decoded. */
function collectParts(entity: string, into: { text: string; html: string }): void {
  const { headers, body } = splitEntity(entity);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\n/, ''), into);
    }
    return;
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body).toString('utf8')
        : body;
  if (type.toLowerCase().startsWith('text/html')) into.html += decoded;
  else if (type.toLowerCase().startsWith('text/plain')) into.text += decoded;
}

export function parseMail(raw: string, recipients: string[] = []): ReceivedMail {
  const normalised = raw.replace(/\r\n/g, '\n');
  const { headers } = splitEntity(normalised);
  const parts = { text: '', html: '' };
  collectParts(normalised, parts);
  return {
    recipients,
    to: decodeHeader(headers.get('to') ?? ''),
    subject: decodeHeader(headers.get('subject') ?? ''),
    ...parts,
    raw,
  };
}

/** A local SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every message it receives. */
export async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  /** While held, messages wait at the end of DATA (unreceived, unanswered) until released. */
  let held: Array<() => void> | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map((address) => address.address);
        const receive = () => {
          messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), recipients));
          callback();
        };
        if (held) held.push(receive);
        else receive();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** How many messages are waiting, held, for `release`. */
    get waiting() {
      return held?.length ?? 0;
    },
    /** Holds the messages that arrive from now on (received and answered only on `release`). */
    hold() {
      held ??= [];
    },
    /** Receives and answers the held messages, and stops holding. */
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const receive of waiting) receive();
    },
    /** The first message (received so far or later) that `matches`, or a rejection after `timeoutMs`. */
    async waitFor(matches: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(matches);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no matching e-mail reached the SMTP sink');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
