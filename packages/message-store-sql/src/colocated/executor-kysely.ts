import type { ProjectionSqlExecutor } from '@nimbus/message-store';
import { kyselyOver as kyselyOverExecutor } from '@nimbus/sql';
import type { SqlDialectName } from '../config/sql-store-settings.js';
import type { StoreDb } from '../dialect/sql-dialect.js';
import type { StoreDatabase } from '../schema/database.js';
import { TableMappingPlugin, type TablePlacement } from '../schema/table-mapping-plugin.js';

/**
 * The store's query builder (same table mapping, same compiler) bound to a transaction the transport holds, so
 * the store's own write functions run unchanged inside it.
 */
export function kyselyOver(
  dialect: SqlDialectName,
  placement: TablePlacement,
  executor: ProjectionSqlExecutor,
): StoreDb {
  return kyselyOverExecutor<StoreDatabase>(dialect, executor, {
    plugins: [new TableMappingPlugin(placement)],
  });
}
