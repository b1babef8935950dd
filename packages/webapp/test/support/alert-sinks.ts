import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedWebhook {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A local HTTP receiver for webhook alerts; answers 500 to the next `failNext` requests. */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const state = { failNext: 0, attempts: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      state.attempts += 1;
      if (state.failNext > 0) {
        state.failNext -= 1;
        response.writeHead(500).end('receiver down');
        return;
      }
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/nimbus-alerts?token=path-secret`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
}

/** A local SMTP sink (the `smtp-server` package) that keeps every message it is sent. */
export async function startSmtpSink() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
