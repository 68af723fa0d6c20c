import { SMTPServer } from 'smtp-server';
import { createSmtpMailer } from '../../src/server/integrations/mail/mailer.ts';
import { freePort } from '../../src/server/lib/free-port.ts';

export type ReceivedMail = { to: string[]; raw: string };

/** Decodes a mail's quoted-printable soft line breaks and escapes, enough to read its links. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A real SMTP server on a loopback port, keeping what it receives; it can be stopped and started again on the same port. */
export async function startSmtpServer(options: { port?: number; onMail?: (mail: ReceivedMail) => void } = {}) {
  const received: ReceivedMail[] = [];
  const listenPort = options.port ?? (await freePort());
  let server: SMTPServer | undefined;
  const start = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const mail = {
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          };
          received.push(mail);
          options.onMail?.(mail);
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(listenPort, '127.0.0.1', () => resolve());
    });
  };
  await start();
  return {
    port: listenPort,
    url: `smtp://127.0.0.1:${listenPort}`,
    received,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}

/** A real SMTP server that is down for now (start it again to end the outage), and a mailer that sends to it. */
export async function startSmtpOutage() {
  const smtp = await startSmtpServer();
  const mailer = createSmtpMailer(smtp.url, 'Kitshop <no-reply@kitshop.dev>');
  await smtp.stop();
  return { smtp, mailer };
}
