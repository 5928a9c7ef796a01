// Status pages as members manage them, and what a public page shows. No imports outside the
// contract: the dashboard bundles it.
import type { PublicMaintenance } from './maintenance-windows.js';
import type { IncidentStatus } from './responses.js';

/** A status page as the API answers it. */
export interface StatusPage {
  slug: string;
  title: string;
  description: string | null;
  public: boolean;
  /** Slugs of the checks shown, in page order. */
  checks: string[];
  createdAt: string;
  updatedAt: string;
}

/** A check's state as a public page shows it. */
export type PublicCheckState = 'pending' | 'up' | 'degraded' | 'down' | 'paused' | 'maintenance';

/** The overall state of a page, from the states of its checks. */
export type PageState = 'operational' | 'degraded' | 'partial outage' | 'major outage';

/** One listed check: its name and health only, never its target, labels or configuration. */
export interface PublicCheck {
  name: string;
  state: PublicCheckState;
  /** Uptime over the last 90 days in percent, or null when nothing ran. */
  uptime90d: number | null;
  /** The last 90 days, oldest first (`date` is YYYY-MM-DD in UTC); null where nothing ran. */
  days: Array<{ date: string; uptimePercent: number | null }>;
}

/** An incident of a listed check, as a public page shows it. */
export interface PublicIncident {
  /** The incident's uid: the feed's entry id is made from it. */
  uid: string;
  title: string;
  status: IncidentStatus;
  openedAt: string;
  resolvedAt: string | null;
}

/** Everything a public status page shows, as `GET /api/v1/public/status/{org}/{page}` answers it. */
export interface PublicStatus {
  title: string;
  description: string | null;
  state: PageState;
  checks: PublicCheck[];
  incidents: PublicIncident[];
  /** Maintenance of the listed checks: under way, then scheduled, by start. */
  maintenance: PublicMaintenance[];
}
