import { Header, type ManualClock, type TransportMessage, uuidv7 } from '@nimbus/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntry, OutboxStore } from '../outbox/outbox-store.js';
import { SqlOutboxStore } from '../outbox/sql-outbox-store.js';
import { executorFor, type SqlConnection, type SqlDialect } from '../sql/sql-connection.js';

export interface OutboxConformanceFixture {
  readonly store: OutboxStore;
  /** The clock the store stamps rows with. */
  readonly clock: ManualClock;
  /** SQL providers: the connection behind the store, for the table-upgrade case. */
  readonly sql?: { readonly connection: SqlConnection; readonly dialect: SqlDialect };
  /** Providers that join a caller's transaction: runs `fn` in one, then commits or rolls back. */
  inTransaction?(outcome: 'commit' | 'rollback', fn: (transaction: unknown) => Promise<void>): Promise<void>;
  cleanup(): Promise<void>;
}

export function conformanceMessage(
  sessionId: string,
  body = '{}',
  headers: Record<string, string> = {},
): TransportMessage {
  return {
    messageId: uuidv7(),
    sessionId,
    correlationId: `c-${sessionId}`,
    headers: {
      [Header.To]: 'Erp',
      [Header.EventTypeId]: 'OrderPlaced',
      [Header.MessageType]: 'EventRequest',
      ...headers,
    },
    body,
  };
}

const entry = (sessionId: string, body?: string): OutboxEntry => ({
  source: 'Crm',
  message: conformanceMessage(sessionId, body),
});

/** Registers `OutboxStore conformance [name]`; `factory` must return an empty, ready store for every case. */
export function describeOutboxStoreConformance(
  name: string,
  factory: () => Promise<OutboxConformanceFixture>,
): void {
  describe(`OutboxStore conformance [${name}]`, () => {
    let fixture: OutboxConformanceFixture;
    beforeEach(async () => {
      fixture = await factory();
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('stores a message and returns it pending with every field intact', async () => {
      const { store, clock } = fixture;
      const message = conformanceMessage('s1', '{"total":12}', {
        [Header.TraceParent]: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        [Header.TraceState]: 'vendor=1',
      });
      const enqueueAt = new Date(clock.now() + 60_000);
      const stored = await store.store({ source: 'Crm', message, enqueueAt });
      const [pending] = await store.getPending(10);
      expect(pending).toEqual(stored);
      expect(pending).toMatchObject({
        source: 'Crm',
        message,
        messageId: message.messageId,
        destination: 'Erp',
        eventTypeId: 'OrderPlaced',
        sessionId: 's1',
        correlationId: 'c-s1',
        enqueueAt,
        createdAt: new Date(clock.now()),
        dispatchedAt: null,
        traceParent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        traceState: 'vendor=1',
      });
    });

    it('returns pending rows oldest first and honours the limit', async () => {
      const { store, clock } = fixture;
      const first = await store.store(entry('s1', '1'));
      clock.advance(10);
      const batch = await store.storeBatch([entry('s2', '2'), entry('s1', '3'), entry('s3', '4')]);
      clock.advance(10);
      const last = await store.store(entry('s2', '5'));
      expect((await store.getPending(10)).map((r) => r.id)).toEqual([
        first.id,
        ...batch.map((r) => r.id),
        last.id,
      ]);
      expect((await store.getPending(2)).map((r) => r.message.body)).toEqual(['1', '2']);
    });

    it('stores a large batch in order and accepts an empty one', async () => {
      const { store } = fixture;
      expect(await store.storeBatch([])).toEqual([]);
      const rows = await store.storeBatch(
        Array.from({ length: 250 }, (_, i) => entry(`s${i % 7}`, String(i))),
      );
      const pending = await store.getPending(1_000);
      expect(pending.map((r) => r.message.body)).toEqual(rows.map((r) => r.message.body));
      expect(pending).toHaveLength(250);
    });

    it('single markAsDispatched is idempotent, keeps the first dispatch time and excludes the row from pending', async () => {
      const { store, clock } = fixture;
      const a = await store.store(entry('s1'));
      const b = await store.store(entry('s1'));
      expect(await store.markAsDispatched([a.id])).toBe(1);
      const firstTime = (await store.find(a.id))?.dispatchedAt;
      expect(firstTime).toEqual(new Date(clock.now()));
      clock.advance(20);
      expect(await store.markAsDispatched([a.id])).toBe(0);
      expect((await store.find(a.id))?.dispatchedAt).toEqual(firstTime);
      expect((await store.getPending(10)).map((r) => r.id)).toEqual([b.id]);
    });

    it('batch markAsDispatched is idempotent after a partial checkpoint', async () => {
      const { store, clock } = fixture;
      const [a, b, c] = await store.storeBatch([entry('s1'), entry('s2'), entry('s3')]);
      await store.markAsDispatched([a!.id, b!.id]);
      const firstTime = new Date(clock.now());
      clock.advance(20);
      expect(await store.markAsDispatched([b!.id, c!.id, a!.id])).toBe(1);
      await store.markAsDispatched([a!.id, b!.id, c!.id]);
      expect((await store.find(a!.id))?.dispatchedAt).toEqual(firstTime);
      expect((await store.find(b!.id))?.dispatchedAt).toEqual(firstTime);
      expect((await store.find(c!.id))?.dispatchedAt).toEqual(new Date(clock.now()));
      expect(await store.getPending(10)).toEqual([]);
      expect(await store.markAsDispatched([])).toBe(0);
    });

    it('purgeDispatched deletes only dispatched rows older than the cutoff', async () => {
      const { store, clock } = fixture;
      const [old, recent, pending] = await store.storeBatch([entry('s1'), entry('s2'), entry('s3')]);
      await store.markAsDispatched([old!.id]);
      clock.advance(1_000);
      await store.markAsDispatched([recent!.id]);
      clock.advance(1_000);
      expect(await store.purgeDispatched(new Date(clock.now() - 1_500))).toBe(1);
      expect(await store.find(old!.id)).toBeNull();
      expect(await store.find(recent!.id)).not.toBeNull();
      expect(await store.purgeDispatched(new Date(clock.now() + 1))).toBe(1);
      expect((await store.getPending(10)).map((r) => r.id)).toEqual([pending!.id]);
    });

    it('reports the pending count and the oldest pending time', async () => {
      const { store, clock } = fixture;
      expect(await store.pendingStats()).toEqual({ count: 0, oldestCreatedAt: null });
      const created = new Date(clock.now());
      const a = await store.store(entry('s1'));
      clock.advance(5);
      await store.store(entry('s1'));
      expect(await store.pendingStats()).toEqual({ count: 2, oldestCreatedAt: created });
      await store.markAsDispatched([a.id]);
      expect((await store.pendingStats()).count).toBe(1);
    });

    it('refuses invalid input with an error naming it, storing nothing', async () => {
      const { store } = fixture;
      const bad = { source: 'Crm', message: { ...conformanceMessage('s1'), messageId: '' } };
      await expect(store.storeBatch([entry('s1'), bad])).rejects.toThrow(/entry 1: message.messageId/);
      await expect(store.store({ source: '', message: conformanceMessage('s1') })).rejects.toThrow(/source/);
      await expect(store.getPending(0)).rejects.toThrow(/positive integer/);
      expect(await store.getPending(10)).toEqual([]);
    });

    it('writes in the caller transaction: committed rows appear, rolled-back rows do not', async (context) => {
      if (!fixture.inTransaction) return context.skip('this provider cannot join a caller transaction');
      const { store } = fixture;
      await fixture.inTransaction('rollback', async (transaction) => {
        await store.store(entry('rolled-back'), { transaction });
      });
      await fixture.inTransaction('commit', async (transaction) => {
        await store.storeBatch([entry('committed'), entry('committed')], { transaction });
      });
      expect((await store.getPending(10)).map((r) => r.sessionId)).toEqual(['committed', 'committed']);
    });

    it('ensureTableExists baselines a table an older version created (journal, upgrade, rows kept); VerifyOnly refused it before', async (context) => {
      if (!fixture.sql) return context.skip('not a SQL provider');
      const { connection, dialect } = fixture.sql;
      const executor = executorFor(connection, dialect);
      const epoch = dialect === 'postgres' ? 'bigint' : 'integer';
      await executor.run(`create table legacy_outbox (
        id text primary key, message_id text not null, source text not null, event_type_id text,
        session_id text not null, correlation_id text, payload text not null,
        created_at ${epoch} not null, dispatched_at ${epoch})`);
      const message = conformanceMessage('legacy');
      await executor.run(
        'insert into legacy_outbox (id, message_id, source, event_type_id, session_id, correlation_id, payload, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          'legacy-1',
          message.messageId,
          'Crm',
          'OrderPlaced',
          'legacy',
          message.correlationId,
          JSON.stringify(message),
          fixture.clock.now(),
        ],
      );
      const upgraded = new SqlOutboxStore(connection, dialect, {
        tableName: 'legacy_outbox',
        clock: fixture.clock,
      });
      const refused = await upgraded.migrate('VerifyOnly').catch((error: unknown) => error);
      expect(refused).toMatchObject({ name: 'SchemaOutOfDateError', unapplied: ['0001_baseline'] });
      await upgraded.ensureTableExists();
      await upgraded.ensureTableExists();
      await expect(upgraded.migrate('VerifyOnly')).resolves.toMatchObject({
        alreadyApplied: ['0001_baseline'],
      });
      const [old] = await upgraded.getPending(10);
      expect(old).toMatchObject({ id: 'legacy-1', message, dispatchedAt: null, enqueueAt: null });
      const added = await upgraded.store(entry('new'));
      expect((await upgraded.find(added.id))?.destination).toBe('Erp');
      expect(await upgraded.markAsDispatched(['legacy-1', added.id])).toBe(2);
    });
  });
}
