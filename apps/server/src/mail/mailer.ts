export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Sends e-mail: over SMTP in production, to `.eml` files in the default start, to a sink in tests. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
