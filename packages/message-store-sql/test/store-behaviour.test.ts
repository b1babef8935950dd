import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Logger, ManualClock, MessageType, silentLogger } from '@nimbus/core';
import {
  type MessageStateChangeNotifier,
  ResolutionStatus,
  type RetentionSweepResult,
  resolveSingleProvider,
  StorageProviderTransientError,
} from '@nimbus/message-store';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createSqlMessageStore,
  type SqlMessageStoreOptions,
  sqlStorageProvider,
  startRetentionSweeper,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-behaviour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const nextFile = () => join(dir, `store-${++n}.db`);
const request = (lastMessageId = 'm1') => ({
  enqueuedTimeUtc: new Date(),
  messageType: MessageType.EventRequest,
  lastMessageId,
});

function open(filename: string, options: Partial<SqlMessageStoreOptions> = {}) {
  return createSqlMessageStore({
    dialect: 'sqlite',
    filename,
    retentionSweep: false,
    logger: silentLogger,
    env: {},
    ...options,
  });
}

describe('transient error translation (SQLite)', () => {
  it('a write that cannot get the lock becomes a retryable StorageProviderTransientError; other errors pass through', async () => {
    const filename = nextFile();
    const store = await open(filename, { busyTimeoutMs: 20 });
    const blocker = new Database(filename);
    try {
      blocker.exec('begin immediate');
      for (const write of [
        () =>
          store.writeStatus({
            key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
            status: ResolutionStatus.Pending,
            content: request(),
          }),
        () =>
          store.writeStatus({
            key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
            status: ResolutionStatus.Completed,
            content: request(),
          }),
      ]) {
        const error = await write().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StorageProviderTransientError);
        expect(error).toMatchObject({ code: 'Transient', isRetryable: true });
        expect((error as Error).message).toBe('The SQLite message store is temporarily unavailable.');
        expect(((error as Error).cause as { code: string }).code).toMatch(/^SQLITE_BUSY/);
      }
      blocker.exec('rollback');
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: request(),
        }),
      ).toBe(true);
      await expect(
        store.writeStatus({
          key: { endpointId: 'messages', eventId: 'e1', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: request(),
        }),
      ).rejects.toMatchObject({
        code: 'ReservedEndpointId',
      });
    } finally {
      blocker.close();
      await store.close();
    }
  });
});

describe('state-change notifier', () => {
  it('fires after the write committed, only for writes that happened, and a failing notifier never fails a write', async () => {
    const filename = nextFile();
    const seen: { endpointId: string; committedStatus: string | undefined }[] = [];
    const reader = () => new Database(filename, { readonly: true });
    let failNext = false;
    const notifier: MessageStateChangeNotifier = {
      async notify(change) {
        if (change.kind !== 'endpoint') return;
        const { endpointId } = change;
        // A separate connection only sees committed data.
        const db = reader();
        const row = db.prepare('select status from nimbus_unresolved_events where event_id = ?').get('e1') as
          | { status: string }
          | undefined;
        db.close();
        seen.push({ endpointId, committedStatus: row?.status });
        if (failNext) throw new Error('push channel down');
      },
    };
    const logger: Logger = { ...silentLogger, warn: vi.fn() };
    const store = await open(filename, { notifier, logger });
    try {
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: request(),
        }),
      ).toBe(true);
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
          status: ResolutionStatus.Completed,
          content: request(),
        }),
      ).toBe(true);
      // Refused by the guard: nothing written, nothing announced.
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: request('late-copy'),
        }),
      ).toBe(false);
      failNext = true;
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e1', sessionId: 's1' },
          status: ResolutionStatus.Failed,
          content: {
            ...request(),
            messageType: MessageType.ErrorResponse,
          },
        }),
      ).toBe(true);
      expect(seen).toEqual([
        { endpointId: 'ep', committedStatus: 'Pending' },
        { endpointId: 'ep', committedStatus: 'Completed' },
        { endpointId: 'ep', committedStatus: 'Failed' },
      ]);
      expect(logger.warn).toHaveBeenCalledWith(
        expect.objectContaining({ error: 'push channel down' }),
        expect.stringContaining('notifier failed'),
      );
    } finally {
      await store.close();
    }
  });
});

describe('retention sweeper job', () => {
  it('sweeps on its interval in batches until everything expired is gone', async () => {
    const clock = new ManualClock();
    const sweeps: RetentionSweepResult[] = [];
    let swept: () => void = () => {};
    const store = await open(nextFile(), {
      clock,
      retentionSweep: {
        intervalMs: 60_000,
        batchSize: 2,
        onSweep: (result) => {
          sweeps.push(result);
          swept();
        },
      },
    });
    try {
      for (let i = 0; i < 5; i++)
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: `e${i}`, sessionId: 's1' },
          status: ResolutionStatus.Completed,
          content: request(),
        });
      await store.writeStatus({
        key: { endpointId: 'ep', eventId: 'live', sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: request(),
      });
      const firstSweep = new Promise<void>((resolve) => {
        swept = resolve;
      });
      clock.advance(31 * 86_400_000);
      await firstSweep;
      expect(sweeps).toHaveLength(1);
      expect(sweeps[0]).toMatchObject({ terminalRows: 5, unresolvedRows: 0 });
      expect(await store.getEvent({ endpointId: 'ep', eventId: 'e0' })).toBeNull();
      expect(await store.getEvent({ endpointId: 'ep', eventId: 'live' })).not.toBeNull();
    } finally {
      await store.close();
    }
  });

  it('logs a failed sweep and keeps running', async () => {
    const clock = new ManualClock();
    const logger: Logger = { ...silentLogger, error: vi.fn() };
    const empty: RetentionSweepResult = {
      unresolvedRows: 0,
      terminalRows: 0,
      softDeletedRows: 0,
      archivedRows: 0,
      messages: 0,
      audits: 0,
    };
    let calls = 0;
    let second: () => void = () => {};
    const secondSweep = new Promise<void>((resolve) => {
      second = resolve;
    });
    const sweeper = startRetentionSweeper({
      clock,
      logger,
      intervalMs: 1000,
      sweep: async () => {
        calls++;
        if (calls === 1) throw new Error('database is locked');
        return empty;
      },
      onSweep: () => second(),
    });
    clock.advance(1000);
    await vi.waitFor(() => expect(logger.error).toHaveBeenCalledTimes(1));
    clock.advance(1000);
    await secondSweep;
    expect(calls).toBe(2);
    await sweeper.stop();
    expect(() => startRetentionSweeper({ clock, logger, intervalMs: 0, sweep: async () => empty })).toThrow(
      /retentionSweep.intervalMs/,
    );
  });
});

describe('registration and options', () => {
  it('registers as one provider with SQL capabilities and opens the store', async () => {
    const registration = sqlStorageProvider({
      dialect: 'sqlite',
      filename: nextFile(),
      env: {},
      retentionSweep: false,
      logger: silentLogger,
    });
    expect(registration.providerName).toBe('SQLite');
    expect(registration.capabilities.supportsCrossAccountCopy).toBe(false);
    expect(resolveSingleProvider([registration])).toBe(registration);
    expect(() => resolveSingleProvider([registration, registration])).toThrow(/Exactly one/);
    const store = await registration.open();
    try {
      expect(store.providerName).toBe('SQLite');
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
          status: ResolutionStatus.Pending,
          content: request(),
        }),
      ).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('an invalid unresolved retention fails at start naming the option and value', async () => {
    await expect(
      open(nextFile(), { env: { NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS: '400' } }),
    ).rejects.toThrow(/unresolvedRetentionDays "400"/);
    await expect(open(nextFile(), { retention: { unresolvedRetentionDays: 0 } })).rejects.toMatchObject({
      code: 'InvalidOption',
    });
  });

  it('VerifyOnly on a fresh file refuses to start and lists every unapplied migration', async () => {
    await expect(open(nextFile(), { migrationMode: 'VerifyOnly' })).rejects.toThrow(
      /unapplied migration\(s\): 0001_initial, 0002_retention_indexes/,
    );
  });
});

describe('retention keeps the expiry each row was written with', () => {
  const DAY = 86_400_000;
  const pending = (eventId: string) => ({
    key: { endpointId: 'ep', eventId, sessionId: 's1' },
    status: ResolutionStatus.Pending,
    content: request(eventId),
  });

  it('lowering the unresolved retention deletes nothing written under the longer window', async () => {
    const filename = nextFile();
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const long = await open(filename, { clock, retention: { unresolvedRetentionDays: 30 } });
    await long.writeStatus(pending('written-under-30-days'));
    await long.close();
    clock.advance(2 * DAY);
    const short = await open(filename, { clock, retention: { unresolvedRetentionDays: 1 } });
    try {
      await short.writeStatus(pending('written-under-1-day'));
      clock.advance(2 * DAY);
      expect((await short.sweepExpired()).unresolvedRows).toBe(1);
      expect(await short.getEvent({ endpointId: 'ep', eventId: 'written-under-30-days' })).not.toBeNull();
      expect(await short.getEvent({ endpointId: 'ep', eventId: 'written-under-1-day' })).toBeNull();
    } finally {
      await short.close();
    }
  });

  it('raising it leaves rows written under the shorter window to expire when they were due', async () => {
    const filename = nextFile();
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const short = await open(filename, { clock, retention: { unresolvedRetentionDays: 1 } });
    await short.writeStatus(pending('written-under-1-day'));
    await short.close();
    const long = await open(filename, { clock, retention: { unresolvedRetentionDays: 30 } });
    try {
      clock.advance(2 * DAY);
      expect((await long.sweepExpired()).unresolvedRows).toBe(1);
      expect(await long.getEvent({ endpointId: 'ep', eventId: 'written-under-1-day' })).toBeNull();
    } finally {
      await long.close();
    }
  });
});
