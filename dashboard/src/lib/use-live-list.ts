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

type LoadedPage<T> = { cursor?: string; page: Page<T> };

/**
 * A cursor-paged list that grows with "load more" and can be read again in place: each loaded
 * page is fetched again from the cursor it started at, so a refresh keeps what the reader has
 * scrolled to. `deps` changing starts over from the first page; late answers are dropped.
 * `loading` is true until the first page for the current `deps` has arrived.
 */
export function useLiveList<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, deps: unknown[]): LiveList<T> {
  // The pages shown, with the generation (the `deps`) they were read for: until the first page of
  // new `deps` arrives, the old pages stay on screen but are never read again nor continued.
  const [loaded, setLoaded] = useState<{ generation: number; pages: LoadedPage<T>[] }>({ generation: 0, pages: [] });
  const pages = loaded.pages;
  const setPages = (run: number, change: (prev: LoadedPage<T>[]) => LoadedPage<T>[]) =>
    setLoaded((prev) => ({ generation: run, pages: change(prev.generation === run ? prev.pages : []) }));
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError>();
  const generation = useRef(0);
  const current = useRef(loaded);
  current.current = loaded;
  /** The pages read for the current `deps`, none while their first page is on its way. */
  const currentPages = () => (current.current.generation === generation.current ? current.current.pages : []);

  useEffect(() => {
    const run = ++generation.current;
    // The rows shown stay until the new first page replaces them, as a reload of a page would.
    setLoading(true);
    fetchPage().then(
      (page) => {
        if (run !== generation.current) return;
        setPages(run, () => [{ page }]);
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
    const last = currentPages().at(-1);
    if (!last?.page.nextCursor) return;
    const cursor = last.page.nextCursor;
    try {
      const page = await fetchPage(cursor);
      if (run === generation.current) setPages(run, (prev) => [...prev, { cursor, page }]);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const refresh = useCallback(async () => {
    const run = generation.current;
    // Nothing loaded for these `deps` yet (the first read failed or is on its way): the first page is read.
    const shown = currentPages();
    const cursors = shown.length > 0 ? shown.map(({ cursor }) => cursor) : [undefined];
    try {
      const fresh = await Promise.all(cursors.map(async (cursor) => ({ cursor, page: await fetchPage(cursor) })));
      if (run === generation.current) {
        // A page loaded with "load more" while this read was on its way stays.
        setPages(run, (prev) => [...fresh, ...prev.slice(fresh.length)]);
        setError(undefined);
      }
    } catch (caught) {
      if (run === generation.current) setError(asApiError(caught));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const update = useCallback((change: (items: T[], pageIndex: number) => T[]) => {
    setLoaded((prev) => ({ ...prev, pages: prev.pages.map(({ cursor, page }, index) => ({ cursor, page: { ...page, items: change(page.items, index) } })) }));
  }, []);

  return { items: pages.flatMap(({ page }) => page.items), loading, error, nextCursor: pages.at(-1)?.page.nextCursor, loadMore, refresh, update };
}
