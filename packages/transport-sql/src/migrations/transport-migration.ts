import type { DialectSchema } from '../dialect/dialect.js';
import type { Tables } from '../tables.js';

export interface TransportSchemaContext {
  /** The dialect's column types (`bigint`, `identity`). */
  readonly types: DialectSchema['columnTypes'];
  readonly t: Tables;
}

/** One numbered change of the transport schema: the statements it runs, in order, in the migration transaction. */
export interface TransportMigration {
  /** `NNNN_description`; the journal key. */
  readonly name: string;
  statements(context: TransportSchemaContext): readonly string[];
}

/** Index names are unqualified on PostgreSQL (they live in the table's schema) and prefixed on SQLite. */
export function index(table: string, suffix: string): string {
  const last = table.split('.').pop()!.replace(/"/g, '');
  return `"${last}_${suffix}"`;
}
