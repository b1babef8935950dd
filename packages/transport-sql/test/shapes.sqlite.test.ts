import { describeResolverEndToEnd } from '@nimbus/resolver/e2e';
import { describeEngineEndToEnd } from '@nimbus/testing/e2e';
import { engineBus, shapes, sqlitePlacement } from './colocated-fixtures.js';

// The Resolver end-to-end scenarios with the SQL store and the SQL transport on SQLite, in both shapes: one file
// (the transport writes plain outcomes itself) and two files (everything through the Resolver); and the engine
// end-to-end scenarios over the same two buses.

describeResolverEndToEnd('SQLite store co-located with the SQL transport', {
  ...shapes('colocated', sqlitePlacement),
  shape: 'colocated',
});

describeResolverEndToEnd('SQLite store apart from the SQL transport', shapes('apart', sqlitePlacement));

describeEngineEndToEnd('sql-sqlite, store co-located', engineBus('colocated', sqlitePlacement));
describeEngineEndToEnd('sql-sqlite, store apart', engineBus('apart', sqlitePlacement));
