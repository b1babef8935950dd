import { InvalidStoreArgumentError } from '@nimbus/message-store';
import { PaginationLimits } from '@nimbus/message-store/provider';
import type { Where } from './where.js';

/*
 * Keyset paging over `seq` (newest write first). The token names the last row a page returned: its
 * `seq`, and the keys of every row at that same `seq` already handed out (several writes can share a
 * seq across processes). The next page asks for rows strictly below that seq, plus rows at it that are
 * not in the list. A row written between two requests sorts ahead of the cursor and is not repeated; a
 * row removed between them shifts nothing, so none is skipped. A row rewritten between two requests gets
 * a new, newer seq: the walk that is under way does not show it again (a fresh first page does).
 */

const PREFIX = 'k1.';
const MAX_SEEN = 10 * PaginationLimits.maxPageSize;

export interface SeqCursor {
  readonly seq: number;
  /** Keys of the rows at `seq` that earlier pages returned. */
  readonly seen: readonly string[];
}

export interface SeqPageRequest {
  readonly cursor: SeqCursor | null;
  readonly size: number;
}

function invalid(token: string): InvalidStoreArgumentError {
  return new InvalidStoreArgumentError('continuationToken', `'${token}' is not a token this store issued`);
}

export function decodeSeqToken(token: string | null | undefined): SeqCursor | null {
  if (token == null || token === '') return null;
  if (!token.startsWith(PREFIX)) throw invalid(token);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw invalid(token);
  }
  const { s, k } = (parsed ?? {}) as { s?: unknown; k?: unknown };
  if (
    typeof s !== 'number' ||
    !Number.isSafeInteger(s) ||
    !Array.isArray(k) ||
    k.length > MAX_SEEN ||
    !k.every((key) => typeof key === 'string')
  ) {
    throw invalid(token);
  }
  return { seq: s, seen: k as string[] };
}

function encodeSeqToken(cursor: SeqCursor): string {
  return (
    PREFIX + Buffer.from(JSON.stringify({ s: cursor.seq, k: cursor.seen }), 'utf8').toString('base64url')
  );
}

/** The page a search asks for: its token decoded, its size resolved by `PaginationLimits`. */
export function seqPageRequest(token: string | null | undefined, requestedSize: number): SeqPageRequest {
  return { cursor: decodeSeqToken(token), size: PaginationLimits.resolve(requestedSize) };
}

/**
 * Adds "after the cursor" to a query over one container. `seenIds` are the `c.id` values of the
 * cursor's already returned rows that live in this container.
 */
export function afterCursor(where: Where, cursor: SeqCursor | null, seenIds: readonly string[]): Where {
  if (cursor === null) return where;
  const seq = where.value(cursor.seq);
  if (seenIds.length === 0) return where.raw(`c.seq <= ${seq}`);
  return where.raw(
    `(c.seq < ${seq} OR (c.seq = ${seq} AND NOT ARRAY_CONTAINS(${where.value([...seenIds])}, c.id)))`,
  );
}

/** How many rows one container query asks for: the page and one more (which tells a page follows). */
export function rowsWanted(request: SeqPageRequest): number {
  return request.size + 1;
}

export interface SeqPage<T> {
  readonly rows: T[];
  readonly continuationToken: string | null;
}

/**
 * Cuts the page from rows read after the cursor (from one or several containers): they are ordered by
 * seq descending, then by key, so equal seqs come out in one order whichever container answered first.
 */
export function seqPageOf<T extends { readonly seq: number }>(
  rows: readonly T[],
  request: SeqPageRequest,
  keyOf: (row: T) => string,
): SeqPage<T> {
  const ordered = [...rows].sort(
    (a, b) => b.seq - a.seq || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0),
  );
  if (ordered.length <= request.size) return { rows: ordered, continuationToken: null };
  const page = ordered.slice(0, request.size);
  const last = page[page.length - 1] as T;
  const atLast = page.filter((row) => row.seq === last.seq).map(keyOf);
  const carried = request.cursor?.seq === last.seq ? request.cursor.seen : [];
  return { rows: page, continuationToken: encodeSeqToken({ seq: last.seq, seen: [...carried, ...atLast] }) };
}
