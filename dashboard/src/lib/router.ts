import { useEffect, useState } from 'preact/hooks';

/**
 * A small history-API router: the dashboard's pages are few and their paths fixed, so matching
 * `:name` segments is all that is needed.
 */

export interface Location {
  path: string;
  search: URLSearchParams;
}

const listeners = new Set<() => void>();

function readLocation(): Location {
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search) };
}

/** The current path with its query, as a return address. */
export const currentPath = (): string => window.location.pathname + window.location.search;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
}

function notify(): void {
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', notify);

/** Re-renders the caller whenever the location changes. */
export function useLocation(): Location {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const update = () => setLocation(readLocation());
    listeners.add(update);
    // A child's effect may have navigated before this one subscribed (children's effects run first).
    update();
    return () => void listeners.delete(update);
  }, []);
  return location;
}

/** Matches `/orgs/:org/checks/:slug` against a path; the parameters, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    if (want[i].startsWith(':')) {
      try {
        params[want[i].slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return null;
      }
    } else if (want[i] !== have[i]) return null;
  }
  return params;
}

/** A click on a same-origin link that the router should handle (not a new tab or a download). */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.defaultPrevented;
}
