// An endpoint process for the co-located crash test: the real engine with a no-op handler on the input `Billing`
// of a SQL transport whose store lives in the same database. With HANG=1 the co-located projection, right after
// writing the Completed row inside the settlement's transaction, writes the marker file and never returns: the
// test SIGKILLs the process there, between the handler and the commit of its settlement.
import { appendFileSync } from 'node:fs';
import { MessageEngine, SessionProcessor, silentLogger, systemClock } from '@nimbus/core';
import type { ColocatedProjection } from '@nimbus/message-store';
import { createSqlColocatedProjection } from '@nimbus/message-store-sql';
import { createSqlTransport } from '../../src/index.js';
import { crashConnections } from './connections.js';

const { store, transport: connection } = crashConnections(process.env);
const marker = process.env.MARKER_FILE ?? '';
const inner = createSqlColocatedProjection({ ...store, env: {} });
const projection: ColocatedProjection = {
  dialect: inner.dialect,
  plan: (message) => inner.plan(message),
  committed: (db, endpoints) => inner.committed(db, endpoints),
  async write(tx, plans) {
    const changed = await inner.write(tx, plans);
    if (process.env.HANG === '1') {
      appendFileSync(marker, `wrote ${plans.length} in the open transaction\n`);
      await new Promise(() => undefined);
    }
    return changed;
  },
};
const transport = await createSqlTransport(connection, { projection, lockDurationMs: 2000 });
const engine = new MessageEngine({
  endpointId: 'Billing',
  handler: { handle: async () => undefined },
  clock: systemClock,
  logger: silentLogger,
});
const processor = new SessionProcessor({
  transport,
  input: 'Billing',
  handler: engine,
  maxConcurrentSessions: 2,
  sessionIdleTimeoutMs: 200,
  logger: silentLogger,
});
await processor.start();
appendFileSync(marker, 'ready\n');
