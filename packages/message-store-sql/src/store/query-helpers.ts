import { InvalidStoreArgumentError } from '@nimbus/message-store';
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

/** Offset-paged continuation tokens are the decimal offset of the next page. */
export function decodeOffsetToken(token: string | null | undefined): number {
  if (token == null || token === '') return 0;
  if (!/^\d{1,15}$/.test(token)) {
    throw new InvalidStoreArgumentError('continuationToken', `'${token}' is not a token this store issued`);
  }
  return Number(token);
}

/** Given a page fetched with one extra row, the rows to return and the next token (null on the last page). */
export function pageOf<T>(rows: T[], offset: number, size: number): { rows: T[]; token: string | null } {
  return rows.length > size
    ? { rows: rows.slice(0, size), token: String(offset + size) }
    : { rows, token: null };
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export function ordinalCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
