import { useState } from 'preact/hooks';
import { asApiError, type ApiError } from '../api/errors';
import type { Page } from '../api/types';
import { useAsync, type AsyncState } from './use-async';

export interface PagedList<T> {
  /** The first page: reloaded whenever `deps` change. */
  first: AsyncState<Page<T>>;
  /** The first page's items, then those of every page loaded since. */
  items: T[];
  /** Where the next page starts; null or undefined when there is none. */
  nextCursor: string | null | undefined;
  loadMore(): Promise<void>;
  /** Why the last "load more" failed. */
  moreError?: ApiError;
}

/**
 * A cursor-paged list that grows with "load more". `fetchPage(cursor)` reads one page; when
 * `deps` change the list starts again from the first page, and pages loaded for an earlier
 * first page are dropped.
 */
export function usePagedList<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, deps: unknown[]): PagedList<T> {
  const first = useAsync(() => fetchPage(), deps);
  const [more, setMore] = useState<{ items: T[]; nextCursor: string | null; for?: Page<T> }>();
  const [moreError, setMoreError] = useState<ApiError>();
  const extra = more && more.for === first.data ? more : undefined;
  const nextCursor = extra ? extra.nextCursor : first.data?.nextCursor;

  const loadMore = async () => {
    setMoreError(undefined);
    try {
      const page = await fetchPage(nextCursor ?? undefined);
      setMore({ items: [...(extra?.items ?? []), ...page.items], nextCursor: page.nextCursor, for: first.data });
    } catch (caught) {
      setMoreError(asApiError(caught));
    }
  };

  return { first, items: [...(first.data?.items ?? []), ...(extra?.items ?? [])], nextCursor, loadMore, moreError };
}
