import { type OffsetPage, type OffsetPageRequest, offsetPageOf } from '@nimbus/message-store/provider';

/** An ordered select that can still be limited, offset and run (any Kysely select qualifies). */
interface PageableQuery<Row> {
  limit(limit: number): { offset(offset: number): { execute(): Promise<Row[]> } };
}

/** Runs an ordered query for one page, reading one row more to learn whether another page follows. */
export async function fetchOffsetPage<Row>(
  query: PageableQuery<Row>,
  request: OffsetPageRequest,
): Promise<OffsetPage<Row>> {
  const rows = await query
    .limit(request.size + 1)
    .offset(request.offset)
    .execute();
  return offsetPageOf(rows, request);
}
