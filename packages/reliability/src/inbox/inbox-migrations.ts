import type { NamedMigration, SqlDialect, SqlExecutor } from '@nimbus/sql';
import { epochType } from '../sql/sql-connection.js';

export interface InboxPlacement {
  readonly dialect: SqlDialect;
  readonly tableName: string;
  readonly schema: string | undefined;
  /** Quoted and qualified. */
  readonly table: string;
}

/**
 * The inbox's numbered migrations. `0001_baseline` is what `ensureTableExists` created before the journal
 * existed and accepts such a table. Its index is now named `<tableName>_endpoint_created` (an index lives in its
 * table's schema); one an older version named `<schema>_<tableName>_endpoint_created` is renamed, not doubled.
 */
export function inboxMigrations(at: InboxPlacement): readonly NamedMigration<SqlExecutor>[] {
  const index = `${at.tableName}_endpoint_created`;
  return [
    {
      name: '0001_baseline',
      async up(tx) {
        await tx.run(
          `create table if not exists ${at.table} (
            identity_hash text primary key,
            endpoint_id text not null,
            message_id text not null,
            created_at ${epochType(at.dialect)} not null
          )`,
        );
        if (at.dialect === 'postgres' && at.schema !== undefined) {
          await tx.run(
            `alter index if exists "${at.schema}"."${at.schema}_${at.tableName}_endpoint_created" rename to "${index}"`,
          );
        }
        await tx.run(`create index if not exists "${index}" on ${at.table} (endpoint_id, created_at)`);
      },
    },
  ];
}
