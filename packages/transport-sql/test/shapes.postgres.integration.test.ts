import { describeResolverEndToEnd } from '@nimbus/resolver/e2e';
import { describeEngineEndToEnd } from '@nimbus/testing/e2e';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { engineBus, postgresPlacement, shapes } from './colocated-fixtures.js';

const runPg = await shouldRunPostgresSuite('transport-sql PostgreSQL store shapes');

// The Resolver end-to-end scenarios with the SQL store and the SQL transport on PostgreSQL: the store in the
// transport's database (co-located) and in a database of its own (through the Resolver).
describe.runIf(runPg)('SQL store and SQL transport on PostgreSQL', () => {
  let bus: TemporaryDatabase;
  let storeOnly: TemporaryDatabase;
  const urls = { bus: '', store: '' };
  beforeAll(async () => {
    bus = await createTemporaryDatabase('nimbus_shapes_bus');
    storeOnly = await createTemporaryDatabase('nimbus_shapes_store');
    urls.bus = bus.url;
    urls.store = storeOnly.url;
  });
  afterAll(async () => {
    await bus?.drop();
    await storeOnly?.drop();
  });
  const place = (shape: 'colocated' | 'apart') => postgresPlacement(urls.bus, urls.store)(shape);

  describeResolverEndToEnd('PostgreSQL store co-located with the SQL transport', {
    ...shapes('colocated', place),
    shape: 'colocated',
  });
  describeResolverEndToEnd('PostgreSQL store in another database', shapes('apart', place));
  describeEngineEndToEnd('sql-postgres, store co-located', engineBus('colocated', place));
  describeEngineEndToEnd('sql-postgres, store apart', engineBus('apart', place));
});
