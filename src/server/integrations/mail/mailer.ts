import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
};

/** Hands one mail to the outside world; throws when it was not taken. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
  /**
   * True when mail stays on this machine (files): only then is a mail's link printed in the log,
   * so a local sign-up can be completed. Links of mail that really goes out carry live tokens.
   */
  local?: boolean;
}

/**
 * A nodemailer transport made on the first mail: nodemailer (some 40 modules) is loaded then, not
 * at start, since most processes send no mail for a long while.
 */
function lazyTransport(make: (nodemailer: typeof import('nodemailer')) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => {
      transport ??= import('nodemailer').then((module) => make(module.default));
      return transport;
    },
    close: () => void transport?.then((made) => made.close()),
  };
}

/** SMTP through nodemailer (`SMTP_URL`, e.g. smtp://user:pass@host:587). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport(smtpUrl, { from }));
  return {
    async send(mail) {
      await (await transport.get()).sendMail({ from, ...mail });
    },
    close: transport.close,
  };
}

/** Without SMTP: each mail becomes an .eml file in `DATA_DIR/mail`, so a newcomer can open it. */
export function createFileMailer(dir: string, from: string): Mailer {
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(mail) {
      const info = await (await transport.get()).sendMail({ from, ...mail });
      await fs.mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^a-z0-9@.-]/gi, '_')}.eml`;
      await fs.writeFile(path.join(dir, name), info.message as Buffer);
    },
    close: transport.close,
    local: true,
  };
}
