import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './harness/eventually.js';
import { readHandlerLog } from './harness/handler-log.js';
import { runCliOnce } from './harness/run-cli.js';
import { PLATFORM_MODULE, Stack, type StackBackend, type TrackingShape } from './harness/stack.js';
import { WriteAudit } from './harness/write-audit.js';
import type { AuditedWrite } from './write-order.js';

// The premise of the chaos suite's write-order check ('overtaken'): the audit sees the copies put on the Resolver
// input in the order the Resolver must read them. A host that receives batches of 8 settles each batch in one
// statement, which appends 8 Resolver copies of one session at once. On PostgreSQL the append joined its arrays to
// the session rows it had locked; once the statement ran as a generic plan (after five executions on a
// connection) the hash join handed the rows back reversed, so they were inserted (and seen by row triggers) as
// seq 8..1, while the Resolver rightly reads by seq: one false 'overtaken' in a chaos run with a batched host.

const EVENTS = 240;
const BATCH = { RECEIVE_BATCH_SIZE: '8' };
const runPg = await shouldRunPostgresSuite('write audit (PostgreSQL)');

/** Publishes EVENTS events of one session, then lets one batched host handle them all. */
async function batchedRun(backend: StackBackend, tracking: TrackingShape, workDir: string) {
  const stack = new Stack({ backend, tracking, workDir, webappPort: 0 });
  try {
    const migrate = await runCliOnce(['store', 'migrate'], stack.cliEnv());
    expect(migrate.code, migrate.stderr).toBe(0);
    const topology = await runCliOnce(['topology', 'apply', '--platform', PLATFORM_MODULE], stack.cliEnv());
    expect(topology.code, topology.stderr).toBe(0);
    const audit = new WriteAudit(
      backend.dialect === 'postgres'
        ? backend
        : { dialect: 'sqlite', dataDir: stack.dataDir, colocated: tracking === 'colocated' },
    );
    await audit.install();
    const publisher = stack.publisher().start();
    await publisher.waitFor(/publisher ready/, 60_000);
    for (let n = 1; n <= EVENTS; n++) publisher.send(JSON.stringify({ orderId: 'batch', n, mode: 'ok' }));
    await eventually(
      () => ((publisher.output.match(/^published /gm)?.length ?? 0) >= EVENTS ? true : undefined),
      90_000,
      `${EVENTS} publishes`,
      50,
    );
    // Started only now, so the session's line is full and every receive takes a whole batch.
    await stack.host('host', BATCH).start().waitFor(/ready/, 60_000);
    const handled = () => readHandlerLog(stack.handlerLog).filter((r) => r.outcome === 'handled').length;
    await eventually(() => (handled() >= EVENTS ? true : undefined), 120_000, 'every event handled');
    // The batch's settlement commits after its last handler run: wait until the audit has every outcome.
    const outcomes = (writes: AuditedWrite[]) =>
      writes.filter((w) => w.messageType === 'ResolutionResponse').length;
    let writes: AuditedWrite[] = [];
    await eventually(
      async () => {
        writes = await audit.writes();
        return outcomes(writes) >= EVENTS ? true : undefined;
      },
      60_000,
      'every outcome audited',
    );
    expect(stack.unexpectedExits()).toEqual([]);
    return writes;
  } finally {
    await stack.stopAll();
  }
}

/** Sequences of the session's enqueued Resolver copies, in the order the audit saw them inserted. */
const enqueuedSeqs = (writes: readonly AuditedWrite[]) =>
  writes
    .filter((w) => w.kind === 'enqueue')
    .sort((a, b) => a.position - b.position)
    .map((w) => w.seq!);

describe('the chaos write audit', () => {
  const dirs: string[] = [];
  const workDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-write-audit-'));
    dirs.push(dir);
    return dir;
  };
  let database: TemporaryDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(runPg)(
    'PostgreSQL: sees a batched settlement append its Resolver copies in sequence order',
    { timeout: 300_000 },
    async () => {
      database = await createTemporaryDatabase('nimbus_write_audit');
      const writes = await batchedRun({ dialect: 'postgres', url: database.url }, 'resolver', workDir());
      const seqs = enqueuedSeqs(writes);
      // Every publish copy and every outcome, nothing read yet (no Resolver runs): one unbroken sequence.
      expect(seqs.length).toBe(2 * EVENTS);
      expect(seqs).toEqual(Array.from({ length: 2 * EVENTS }, (_, i) => i + 1));
    },
  );

  it('SQLite co-located: records the history and status writes the settlements make in transport.db', {
    timeout: 300_000,
  }, async () => {
    const writes = await batchedRun({ dialect: 'sqlite' }, 'colocated', workDir());
    // Co-located, the copies are recorded in the bus's own transactions instead of being put on the Resolver input.
    expect(writes.filter((w) => w.kind === 'enqueue')).toEqual([]);
    const history = writes.filter((w) => w.kind === 'history' && w.messageType === 'ResolutionResponse');
    expect(new Set(history.map((w) => w.eventId)).size).toBe(EVENTS);
    expect(writes.filter((w) => w.kind === 'status' && w.status === 'Completed').length).toBe(EVENTS);
  });
});
