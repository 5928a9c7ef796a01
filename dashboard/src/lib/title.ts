import { useEffect } from 'preact/hooks';

/** Sets the tab title, so history entries and screen readers name the page. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · svc`;
  }, [title]);
}
