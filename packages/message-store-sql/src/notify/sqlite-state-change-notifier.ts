import {
  LifecycleRunner,
  type Logger,
  NimBusError,
  NimBusErrorCode,
  type ServiceLifecycle,
  whenAborted,
  withLifecycle,
} from '@nimbus/core';
import type { StateChangeListener } from '@nimbus/message-store';
import { openSqliteDatabase } from '@nimbus/sql';
import type Database from 'better-sqlite3';
import { decodeChanges } from './change-payloads.js';
import { CoalescingSender } from './coalescing-sender.js';
import type { SqlNotifierTuning, SqlStateChangeNotifier } from './sql-state-change-notifier.js';
import { Subscribers } from './subscribers.js';

export interface SqliteNotifierOptions extends SqlNotifierTuning {
  /**
   * The change-log file shared by the processes of one machine. It is a file of its own, not the store's:
   * better-sqlite3 waits for locks synchronously, so a second connection of one process writing the store's
   * file while the store holds its write lock would stall the process.
   */
  readonly filename: string;
  readonly logger: Logger;
  /** How often the change counter is read. Default 200 ms. */
  readonly pollMs?: number;
  /** Change-log rows older than this are deleted. Default 60 000 ms. */
  readonly keepMs?: number;
  readonly busyTimeoutMs?: number;
}

/** The change-log file beside a store file: `store.db` → `store-changes.db`. */
export function changeLogFilename(storeFilename: string): string {
  return storeFilename.replace(/(\.db)?$/, '-changes.db');
}

/**
 * Cross-process notifications on SQLite: senders append rows to a change log; every process polls the
 * cheap `PRAGMA data_version` counter and reads new rows only when another connection committed. A gap in
 * the sequence (rows pruned before this process read them) or a failed read becomes a resync.
 */
export function createSqliteStateChangeNotifier(options: SqliteNotifierOptions): SqlStateChangeNotifier {
  const subscribers = new Subscribers(options.logger);
  const keepMs = options.keepMs ?? 60_000;
  let db: Database.Database | null = null;
  let lastSeq = 0;
  let lastVersion = -1;
  let ownWrite = false;
  let readFailing = false;
  let timer: NodeJS.Timeout | null = null;
  let lastPruneAt = 0;

  const open = () => {
    const opened = openSqliteDatabase(options.filename, { busyTimeoutMs: options.busyTimeoutMs ?? 5_000 });
    opened.exec(
      'create table if not exists nimbus_state_changes (seq integer primary key autoincrement, payload text not null, at_ms integer not null)',
    );
    return opened;
  };

  const sender = new CoalescingSender({
    logger: options.logger,
    delayMs: options.coalesceMs ?? 50,
    retryMs: options.retryMs ?? 1_000,
    send: async (payloads) => {
      if (!db) throw new NimBusError(NimBusErrorCode.Closed, 'the SQLite state-change log is closed');
      const now = Date.now();
      const insert = db.prepare('insert into nimbus_state_changes (payload, at_ms) values (?, ?)');
      db.transaction(() => {
        for (const payload of payloads) insert.run(payload, now);
        if (now - lastPruneAt > keepMs / 4) {
          db?.prepare('delete from nimbus_state_changes where at_ms < ?').run(now - keepMs);
          lastPruneAt = now;
        }
      })();
      ownWrite = true;
      queueMicrotask(poll);
    },
  });

  function poll(): void {
    if (!db) return;
    try {
      const version = db.pragma('data_version', { simple: true }) as number;
      if (version === lastVersion && !ownWrite) return;
      lastVersion = version;
      ownWrite = false;
      const rows = db
        .prepare('select seq, payload from nimbus_state_changes where seq > ? order by seq')
        .all(lastSeq) as { seq: number; payload: string }[];
      if (rows.length === 0) return;
      const gap = (rows[0]?.seq ?? 0) > lastSeq + 1;
      lastSeq = rows.at(-1)?.seq ?? lastSeq;
      const recovered = readFailing;
      readFailing = false;
      void subscribers.deliver([
        ...(gap || recovered ? [{ kind: 'resync' as const }] : []),
        ...rows.flatMap((row) => decodeChanges(row.payload)),
      ]);
    } catch (error) {
      if (!readFailing)
        options.logger.warn({ error }, 'Could not read the SQLite state-change log; retrying');
      readFailing = true;
    }
  }

  const lifecycle = new LifecycleRunner({
    start: async () => {
      db = open();
      const row = db.prepare('select coalesce(max(seq), 0) as seq from nimbus_state_changes').get() as {
        seq: number;
      };
      lastSeq = row.seq;
      lastVersion = db.pragma('data_version', { simple: true }) as number;
      timer = setInterval(poll, options.pollMs ?? 200);
      timer.unref();
    },
    // Pending changes go out once more, unless the stop's deadline (or `abort()`) cuts that short.
    stop: async ({ signal }) => {
      await Promise.race([sender.close(), whenAborted(signal)]);
      if (timer) clearInterval(timer);
      db?.close();
      db = null;
    },
  });

  const notifier: Omit<SqlStateChangeNotifier, keyof ServiceLifecycle> = {
    dialect: 'sqlite',
    subscribe: (listener: StateChangeListener) => subscribers.subscribe(listener),
    notify: async (change) => sender.add(change),
    flush: () => sender.flush(),
    get listening() {
      return db !== null && !readFailing;
    },
  };
  return withLifecycle(notifier, lifecycle);
}
