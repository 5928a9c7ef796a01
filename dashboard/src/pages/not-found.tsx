import { Link } from '../components/link';
import { usePageTitle } from '../lib/title';

export function NotFoundPage() {
  usePageTitle('Not found');
  return (
    <main id="main">
      <h1 tabIndex={-1}>Page not found</h1>
      <p>There is no dashboard page at this address.</p>
      <p>
        <Link href="/">Go to the start page</Link>
      </p>
    </main>
  );
}
