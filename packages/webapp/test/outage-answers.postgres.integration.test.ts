import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { ERP } from './support/seed.js';
import { postgresStores } from './support/store-factories.js';

// The chaos suite's database restart got 500s from requests that failed in the WebApp's own tables (the session
// lookup of the identity store), whose queries answer with the driver's error rather than a NimBusError.
describe('WebApp on PostgreSQL: its database refuses connections for a moment', () => {
  let h: Harness;
  let admin: pg.Client;
  let database: string;
  beforeAll(async () => {
    h = await startHarness(postgresStores);
    const url = new URL(h.stores.connectionString ?? '');
    database = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await h?.close();
  });

  it('answers 503 with retry-after while no connection can be had, and 200 once it can', async () => {
    await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    const refused = await h.admin.get(`/api/endpoints/${ERP}/events?status=Failed`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.body).toMatchObject({ error: 'ServiceUnavailable', reason: 'BackingServiceUnavailable' });
    expect(JSON.stringify(refused.body)).not.toMatch(/127\.0\.0\.1|5432/);

    await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`);
    await expect
      .poll(async () => (await h.admin.get(`/api/endpoints/${ERP}/events?status=Failed`)).status)
      .toBe(200);
  });
});
