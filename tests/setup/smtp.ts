import { createServer } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A mail as the SMTP server took it: the envelope's recipients, the raw message, and what a mail
 * client shows, decoded by mailparser (encoded-word subjects, quoted-printable or base64 UTF-8 bodies).
 */
export type ReceivedMail = {
  to: string[];
  raw: string;
  /** The header section as sent (folded lines and all). */
  headers: string;
  subject: string;
  text: string;
  html: string;
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

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
        stream.on('end', async () => {
          try {
            const raw = Buffer.concat(chunks);
            const parsed = await simpleParser(raw);
            const mail: ReceivedMail = {
              to: session.envelope.rcptTo.map((r) => r.address),
              raw: raw.toString('utf8'),
              headers: raw.toString('utf8').split('\r\n\r\n')[0]!,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html || '',
            };
            received.push(mail);
            options.onMail?.(mail);
            callback();
          } catch (error) {
            callback(error as Error);
          }
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
