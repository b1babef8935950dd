import {
  type DatabaseConnection,
  type Driver,
  SqliteDialect as KyselySqliteDialect,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import type { SqliteFileGate } from '../sqlite-file-gate.js';
import type { PreparingDatabase } from '../statement-cache.js';

/**
 * Kysely's SQLite dialect whose connection is handed out only during a turn at the file's gate (`sqliteFileGate`
 * of `@nimbus/sql`), so a store never asks for the write lock while another connection of this process — a
 * co-located SQL transport on the same file — holds a transaction open across awaits. A turn lasts one statement,
 * or one `atomic` transaction.
 */
export class GatedSqliteDialect extends KyselySqliteDialect {
  constructor(
    database: PreparingDatabase,
    private readonly gate: SqliteFileGate,
  ) {
    super({ database: database as unknown as SqliteDatabase });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const gate = this.gate;
    const turns = new Map<DatabaseConnection, () => void>();
    return {
      init: () => driver.init(),
      async acquireConnection() {
        const release = await gate.acquire();
        try {
          const connection = await driver.acquireConnection();
          turns.set(connection, release);
          return connection;
        } catch (error) {
          release();
          throw error;
        }
      },
      async releaseConnection(connection) {
        try {
          await driver.releaseConnection(connection);
        } finally {
          turns.get(connection)?.();
          turns.delete(connection);
        }
      },
      beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) =>
        driver.beginTransaction(connection, settings),
      commitTransaction: (connection) => driver.commitTransaction(connection),
      rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
      destroy: () => driver.destroy(),
    };
  }
}
