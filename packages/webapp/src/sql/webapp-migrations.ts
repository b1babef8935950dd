import {
  kyselyOver,
  type MigrationMode,
  type MigrationProgress,
  type MigrationRunResult,
  runMigrations,
  type SqlDialect,
  type SqlExecutor,
  tableJournal,
} from '@nimbus/sql';
import type { Kysely } from 'kysely';

/** What a WebApp migration gets: the statements' database (scoped to the schema) and the raw executor. */
export interface WebAppMigrationContext {
  // biome-ignore lint/suspicious/noExplicitAny: DDL names tables the row types do not describe yet
  readonly db: Kysely<any>;
  readonly tx: SqlExecutor;
  readonly dialect: SqlDialect;
  readonly schema: string | null;
}

export interface WebAppMigration {
  /** `NNNN_description`; the journal key. */
  readonly name: string;
  up(context: WebAppMigrationContext): Promise<void>;
}

/** One WebApp-owned set of tables: its journal and its migrations. */
export interface WebAppSchema {
  /** For messages: `WebApp identity tables`. */
  readonly what: string;
  /** The journal table beside the tables (they share the store's schema, so each set has its own). */
  readonly journal: string;
  readonly migrations: readonly WebAppMigration[];
}

export interface WebAppMigrationOptions {
  readonly mode: MigrationMode;
  readonly onProgress?: (progress: MigrationProgress) => void;
}

/**
 * Brings one set of WebApp tables up to date on the one migration runner of `@nimbus/sql`: a current schema costs
 * one read of its journal; AutoApply applies what is pending in one transaction under the migration lock (so
 * several WebApp instances starting at once apply each migration once); VerifyOnly never runs DDL.
 */
export function migrateWebAppSchema(
  set: WebAppSchema,
  // biome-ignore lint/suspicious/noExplicitAny: the unscoped database of any WebApp store
  opened: { readonly root: Kysely<any>; readonly schema: string | null; readonly where: string },
  dialect: SqlDialect,
  options: WebAppMigrationOptions,
): Promise<MigrationRunResult> {
  const { root, schema } = opened;
  const journal = tableJournal({
    connection: root,
    dialect,
    table: set.journal,
    schema,
    placement: `${set.what} in ${opened.where}`,
  });
  return runMigrations(journal, {
    mode: options.mode,
    migrations: set.migrations.map((migration) => ({
      name: migration.name,
      up: (tx: SqlExecutor) => {
        const over = kyselyOver(dialect, tx);
        return migration.up({ db: schema === null ? over : over.withSchema(schema), tx, dialect, schema });
      },
    })),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

/**
 * Adds the columns a table from an older WebApp lacks (inside a migration, which holds the migration lock, so no
 * other instance adds them meanwhile).
 */
export async function addMissingColumns(
  context: WebAppMigrationContext,
  table: string,
  columns: readonly (readonly [name: string, definition: string])[],
): Promise<void> {
  const { tx, dialect, schema } = context;
  const rows =
    dialect === 'sqlite'
      ? await tx.all('select name from pragma_table_info(?)', [table])
      : await tx.all(
          'select column_name as name from information_schema.columns where table_schema = ? and table_name = ?',
          [schema, table],
        );
  const present = new Set(rows.map((row) => String(row.name)));
  const qualified = schema === null ? `"${table}"` : `"${schema}"."${table}"`;
  for (const [name, definition] of columns) {
    if (!present.has(name)) await tx.run(`alter table ${qualified} add column ${name} ${definition}`);
  }
}
