import { useEffect } from 'preact/hooks';

/** How often monitoring views read the API again. */
export const POLL_MS = 5_000;

/**
 * Calls `refresh` every `ms` while the tab is visible, so a view stays current without a reload;
 * a hidden tab asks nothing of the server.
 */
export function usePolling(refresh: () => void, deps: unknown[], ms = POLL_MS): void {
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, ms);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
