import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';

export interface Page<T> {
  readonly items: readonly T[];
  readonly continuationToken: string | null;
}

/**
 * Pages of a continuation-token list, kept together: "Load more" appends the next page, and a live refetch
 * re-reads every page already loaded (TanStack refetches them in order), so an update never collapses the
 * list back to its first page. Rows are de-duplicated by key because a row that moved while the pages were
 * re-read can show up on two of them.
 */
export function usePagedQuery<T>(
  queryKey: QueryKey,
  fetchPage: (continuationToken: string | null) => Promise<Page<T>>,
  keyOf: (row: T) => string,
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.continuationToken ?? undefined,
  });
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of query.data?.pages ?? []) {
    for (const row of page.items) {
      const key = keyOf(row);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(row);
    }
  }
  return {
    rows,
    error: query.error,
    isLoading: query.isLoading,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
