import { StorageProviderTransientError } from '@nimbus/message-store';
import { SchemaOutOfDateError, startWhenDatabaseAnswers } from '@nimbus/sql';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../src/exit-codes.js';
import { StartupListener } from '../src/services/startup-listener.js';
import { isDatabaseOutage } from '../src/services/wait-for-database.js';

const refused = () =>
  new CliError('Could not open the postgres message store: temporarily unavailable.', ExitCode.Failed, {
    cause: new StorageProviderTransientError(
      'The PostgreSQL message store is temporarily unavailable.',
      null,
      {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      },
    ),
  });

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('StartupListener: the port of a process that waits for its database', () => {
  it('answers /healthz 200, /readyz 503 with the reason and 503 + Retry-After for the rest, then hands over', async () => {
    const listener = await StartupListener.open('NimBus webapp', '127.0.0.1', 0);
    try {
      listener.starting('waiting for the database (connection (ECONNREFUSED): …)');
      expect((await fetch(`${listener.url}/healthz`)).status).toBe(200);
      const readyz = await fetch(`${listener.url}/readyz`);
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toEqual({
        status: 'not ready',
        ready: false,
        checks: {
          startup: {
            ready: false,
            reason: 'NimBus webapp is starting: waiting for the database (connection (ECONNREFUSED): …)',
          },
        },
      });
      const api = await fetch(`${listener.url}/api/endpoints`);
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('5');
      expect(await api.json()).toMatchObject({ error: 'ServiceUnavailable' });

      listener.serve((_request, response) => response.end('started'));
      expect(await (await fetch(`${listener.url}/readyz`)).text()).toBe('started');
      listener.starting('stopping');
      expect((await fetch(`${listener.url}/readyz`)).status).toBe(503);
    } finally {
      await listener.close();
    }
  });
});

describe('startWhenDatabaseAnswers', () => {
  it('waits out an outage with back-off and tells each failed attempt; returns what the start gave', async () => {
    let attempts = 0;
    const waiting: boolean[] = [];
    const started = await startWhenDatabaseAnswers(
      async () => {
        attempts += 1;
        if (attempts < 3) throw refused();
        return 'running';
      },
      {
        what: 'NimBus test',
        logger: silent,
        failFast: false,
        signal: new AbortController().signal,
        onWaiting: (reason, first) => {
          expect(reason).toMatch(/^waiting for the database \(connection \(ECONNREFUSED\)/);
          waiting.push(first);
        },
      },
    );
    expect(started).toBe('running');
    expect(waiting).toEqual([true, false]);
  });

  it('fails at once with --fail-fast, on a configuration error, and returns null when stopped while waiting', async () => {
    const options = { what: 'x', logger: silent, signal: new AbortController().signal, onWaiting() {} };
    await expect(
      startWhenDatabaseAnswers(() => Promise.reject(refused()), { ...options, failFast: true }),
    ).rejects.toThrow(/Could not open/);
    const badConfig = new CliError('NIMBUS_POSTGRES_URL is not set', ExitCode.Usage);
    await expect(
      startWhenDatabaseAnswers(() => Promise.reject(badConfig), { ...options, failFast: false }),
    ).rejects.toBe(badConfig);
    const stop = new AbortController();
    const stopped = startWhenDatabaseAnswers(
      () => {
        stop.abort();
        return Promise.reject(refused());
      },
      { ...options, failFast: false, signal: stop.signal },
    );
    expect(await stopped).toBeNull();
  });

  it('isDatabaseOutage: outages yes; a schema behind, refused credentials and bad input no', () => {
    expect(isDatabaseOutage(refused())).toBe(true);
    expect(
      isDatabaseOutage(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ).toBe(true);
    expect(isDatabaseOutage(new CliError('schema behind', ExitCode.SchemaOutOfDate))).toBe(false);
    expect(isDatabaseOutage(new SchemaOutOfDateError('store', ['0002']))).toBe(false);
    expect(
      isDatabaseOutage(
        Object.assign(new Error('password authentication failed for user "x"'), { code: '28P01' }),
      ),
    ).toBe(false);
    expect(isDatabaseOutage(new RangeError('bad option'))).toBe(false);
  });
});
