import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asApiError, type ApiError } from '../api/errors';
import type { Page } from '../api/types';

export interface LiveList<T> {
  items: T[];
  loading: boolean;
  error?: ApiError;
  nextCursor: string | null | undefined;
  loadMore(): Promise<void>;
  /** Reads every loaded page again, in place (for polling). */
  refresh(): Promise<void>;
  /** Changes the loaded items in place (a live event), with no request. */
  update(change: (items: T[], pageIndex: number) => T[]): void;
}

/**
 * A cursor-paged list that grows with "load more" and can be read again in place: each loaded
 * page is fetched again from the cursor it started at, so a refresh keeps what the reader has
 * scrolled to. `deps` changing starts over from the first page; late answers are dropped.
 * `loading` is true until the first page for the current `deps` has arrived.
 */
export function useLiveList<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, deps: unknown[]): LiveList<T> {
  const [pages, setPages] = useState<Array<{ cursor?: string; page: Page<T> }>>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError>();
  const generation = useRef(0);
  const current = useRef(pages);
  current.current = pages;

  useEffect(() => {
    const run = ++generation.current;
    // The rows shown stay until the new first page replaces them, as a reload of a page would.
    setLoading(true);
    fetchPage().then(
      (page) => {
        if (run !== generation.current) return;
        setPages([{ page }]);
        setError(undefined);
        setLoading(false);
      },
      (caught) => {
        if (run !== generation.current) return;
        setError(asApiError(caught));
        setLoading(false);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const loadMore = async () => {
    const run = generation.current;
    const cursor = current.current.at(-1)?.page.nextCursor ?? undefined;
    try {
      const page = await fetchPage(cursor);
      if (run === generation.current) setPages((prev) => [...prev, { cursor, page }]);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const refresh = useCallback(async () => {
    const run = generation.current;
    // Nothing loaded yet (the first read failed): the first page is read.
    const loaded = current.current.length > 0 ? current.current : [{ cursor: undefined }];
    try {
      const fresh = await Promise.all(loaded.map(async ({ cursor }) => ({ cursor, page: await fetchPage(cursor) })));
      if (run === generation.current) {
        setPages(fresh);
        setError(undefined);
      }
    } catch (caught) {
      if (run === generation.current) setError(asApiError(caught));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const update = useCallback((change: (items: T[], pageIndex: number) => T[]) => {
    setPages((prev) => prev.map(({ cursor, page }, index) => ({ cursor, page: { ...page, items: change(page.items, index) } })));
  }, []);

  return { items: pages.flatMap(({ page }) => page.items), loading, error, nextCursor: pages.at(-1)?.page.nextCursor, loadMore, refresh, update };
}
