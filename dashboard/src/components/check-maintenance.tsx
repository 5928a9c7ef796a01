import { get } from '../api/client';
import type { List, MaintenanceWindow } from '../api/types';
import { useAsync } from '../lib/use-async';
import { Link } from './link';
import { MaintenanceList } from './maintenance-list';

/** The maintenance windows covering one check, under way and coming. */
export function CheckMaintenance({ org, slug }: { org: string; slug: string }) {
  const base = `/orgs/${encodeURIComponent(org)}`;
  const windows = useAsync(() => get<List<MaintenanceWindow>>(`${base}/maintenance-windows`, { query: { check: slug, upcoming: 'true' } }), [org, slug]);
  return (
    <section aria-labelledby="check-maintenance-title">
      <h2 id="check-maintenance-title">Maintenance</h2>
      {windows.data ? <MaintenanceList windows={windows.data.items} empty="No maintenance under way or scheduled for this check." /> : null}
      <p>
        <Link href={`${base}/maintenance`}>Manage maintenance windows</Link>
      </p>
    </section>
  );
}
