import { Writable } from 'node:stream';
import { childLogger } from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import { createMemoryIdentityStore, createWebApp } from '@nimbus/webapp';
import { describe, expect, it } from 'vitest';
import { createCliLogger } from '../src/cli-logger.js';

function capture(isTTY = false) {
  const lines: string[] = [];
  const out = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((line) => line !== ''),
        );
        done();
      },
    }),
    { isTTY },
  );
  return { out, lines, json: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('the nimbus logger (pino)', () => {
  it('writes JSON lines when not on a terminal, with errors serialised and credentials redacted', () => {
    const { out, json } = capture();
    const logger = createCliLogger({ level: 'info', out, env: {} });
    logger.warn(
      {
        error: new TypeError('boom'),
        password: 'Secret!Pass1',
        connection: { connectionString: 'postgres://nimbus:pw@db/nimbus' },
      },
      'Something failed',
    );
    logger.debug({}, 'not at info level');
    const [line, ...rest] = json();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 40,
      msg: 'Something failed',
      error: { type: 'TypeError', message: 'boom' },
      password: '[redacted]',
      connection: { connectionString: '[redacted]' },
    });
    expect(String((line?.error as { stack?: string } | undefined)?.stack)).toContain('TypeError: boom');
    expect(JSON.stringify(line)).not.toContain('Secret!Pass1');
  });

  it('takes NIMBUS_LOG_LEVEL over the command level, refuses an unknown one, and child() adds bindings', () => {
    const { out, json } = capture();
    const logger = createCliLogger({ level: 'warn', out, env: { NIMBUS_LOG_LEVEL: 'debug' } });
    childLogger(logger, { endpoint: 'Erp' }).debug({ sessionId: 'C-1' }, 'handling');
    expect(json()[0]).toMatchObject({ level: 20, endpoint: 'Erp', sessionId: 'C-1', msg: 'handling' });
    expect(() => createCliLogger({ out, env: { NIMBUS_LOG_LEVEL: 'loud' } })).toThrow(
      /NIMBUS_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got 'loud'/,
    );
  });

  it('writes one readable line per record on a terminal', () => {
    const { out, lines } = capture(true);
    createCliLogger({ level: 'info', out, env: {} }).warn(
      { error: new Error('down'), input: 'Erp' },
      'Receive failed',
    );
    expect(lines).toEqual(['[nimbus] warn: Receive failed (error=Error: down input=Erp)']);
  });

  it('gives the WebApp request logs with request ids (the client one when sent) and never a cookie', async () => {
    const { out, json } = capture();
    const logger = createCliLogger({ level: 'info', out, env: {} });
    const app = await createWebApp({
      store: createMemoryMessageStore({ env: {} }),
      transport: new MemoryTransport(),
      identityStore: createMemoryIdentityStore(),
      logger,
      env: {},
      uiDistDir: '/nonexistent-ui-dist',
    });
    try {
      const url = await app.listen();
      const response = await fetch(`${url}/healthz`, {
        headers: { 'x-request-id': 'req-42', cookie: 'NimBus.Identity=top-secret' },
      });
      expect(response.headers.get('x-request-id')).toBe('req-42');
      const generated = (await fetch(`${url}/healthz`)).headers.get('x-request-id');
      expect(generated).toMatch(/^[0-9a-f-]{36}$/);
      const completed = json().filter((line) => line.msg === 'request completed');
      expect(completed.map((line) => line.reqId)).toEqual(['req-42', generated]);
      // One line per request (at completion), not Fastify's pair of lines.
      expect(json().some((line) => line.msg === 'incoming request')).toBe(false);
      expect(JSON.stringify(json())).not.toContain('top-secret');
    } finally {
      await app.close();
    }
  });
});
