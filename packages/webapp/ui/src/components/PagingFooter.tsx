interface Props {
  readonly shown: number;
  /** The total when the API can tell it (for example from the endpoint's status counts). */
  readonly total?: number | undefined;
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  readonly onLoadMore: () => void;
  readonly noun: string;
}

/** "Showing N of M" under a paged list, with a Load more button while the API has further pages. */
export function PagingFooter({ shown, total, hasMore, loadingMore, onLoadMore, noun }: Props) {
  const of = total !== undefined ? ` of ${total}` : hasMore ? ' (more available)' : '';
  return (
    <div className="paging">
      <span data-testid="paging-count">
        Showing {shown}
        {of} {noun}
      </span>
      {hasMore && (
        <button type="button" disabled={loadingMore} onClick={onLoadMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
