import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';
import type { Mailer } from './mailer.ts';

/** Real SMTP through nodemailer: one connection per message, TLS as the URL says (smtps:// or STARTTLS). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/**
 * With no SMTP configured, each e-mail becomes an `.eml` file in `dir` (any mail client opens it),
 * and the log says where: the default start works with no mail server.
 */
export function createOutboxMailer(dir: string, from: string, logger: Logger, now: () => Date): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      mkdirSync(dir, { recursive: true });
      const file = join(
        dir,
        `${now().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      logger.info('e-mail written to the outbox (no SMTP_URL set)', { file, subject: message.subject });
    },
  };
}
