import { createTransport } from 'nodemailer';

/** The SMTP server alert e-mails go through. The password is only handed to nodemailer, never logged. */
export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  readonly secure?: boolean;
  readonly user?: string;
  readonly password?: string;
  /** The From address. */
  readonly from: string;
}

export interface Mailer {
  send(to: string, subject: string, text: string): Promise<void>;
  close(): void;
}

export function createSmtpMailer(settings: SmtpSettings): Mailer {
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure ?? false,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from: settings.from, to, subject, text });
    },
    close: () => transport.close(),
  };
}
