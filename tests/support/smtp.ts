import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server (smtp-server) on a free port: the store talks to it with nodemailer over TCP. */
export async function startSmtp(): Promise<{ url: string; inbox: Received[]; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, inbox, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

/** Quoted-printable soft breaks and escapes, enough to read the text part. */
export const decodeQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Waits until `count` mails have reached `to`. */
export async function waitForMail(inbox: Received[], to: string, count: number): Promise<Received[]> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const mails = inbox.filter((m) => m.to.includes(to));
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail for ${to}`);
}
