import type { CreateTableBuilder } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import type { StoreTableName } from '../schema/database.js';

/** One numbered schema change. Applied once, in name order, and recorded in the journal table. */
export interface Migration {
  /** `NNNN_description`; the journal key. */
  readonly name: string;
  up(tx: StoreDb, dialect: SqlDialect): Promise<void>;
}

/** Adds an auto-numbered primary key `id` in the engine's own idiom. */
export function withIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: SqlDialect,
): CreateTableBuilder<T, 'id'> {
  return dialect.name === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey())
    : table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity());
}

export async function index(
  tx: StoreDb,
  name: string,
  table: StoreTableName,
  columns: string[],
): Promise<void> {
  await tx.schema.createIndex(name).on(table).columns(columns).execute();
}
