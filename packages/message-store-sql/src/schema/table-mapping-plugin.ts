import type { QueryId } from 'kysely';
import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
} from 'kysely';
import { STORE_TABLES, type StoreTableName } from './database.js';

/** Where a logical table lives: a PostgreSQL schema, or a name prefix on SQLite (which has no schemas). */
export type TablePlacement = { readonly schema: string } | { readonly prefix: string };

const LOGICAL = new Set<string>(STORE_TABLES);

/** Maps the store's logical table names onto their physical place, in built queries and in `sql.table()`. */
export class TableMappingPlugin implements KyselyPlugin {
  readonly #transformer: TableMapper;

  constructor(placement: TablePlacement) {
    this.#transformer = new TableMapper(placement);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

class TableMapper extends OperationNodeTransformer {
  constructor(private readonly placement: TablePlacement) {
    super();
  }

  protected override transformTable(node: TableNode, queryId?: QueryId): TableNode {
    const transformed = super.transformTable(node, queryId);
    const name = transformed.table.identifier.name;
    if (transformed.table.schema || !LOGICAL.has(name)) return transformed;
    return physicalTableNode(this.placement, name as StoreTableName);
  }
}

export function physicalTableNode(placement: TablePlacement, name: StoreTableName): TableNode {
  return 'schema' in placement
    ? TableNode.createWithSchema(placement.schema, name)
    : TableNode.create(`${placement.prefix}${name}`);
}
