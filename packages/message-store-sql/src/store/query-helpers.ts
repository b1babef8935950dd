import { type Expression, type SqlBool, sql } from 'kysely';

/** `lower(column) LIKE lower(prefix%)` with LIKE wildcards in the prefix taken literally. */
export function startsWithIgnoringCase(column: string, prefix: string): Expression<SqlBool> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/** Every way a composite id `{eventId}_{sessionId}` can split (event ids may contain `_` themselves). */
export function compositeIdSplits(id: string): { eventId: string; sessionId: string }[] {
  const splits: { eventId: string; sessionId: string }[] = [];
  for (let i = id.indexOf('_'); i >= 0; i = id.indexOf('_', i + 1)) {
    splits.push({ eventId: id.slice(0, i), sessionId: id.slice(i + 1) });
  }
  return splits;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export function ordinalCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
