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

/** The states of a status-page update; every state but `resolved` keeps it open. */
export const STATUS_PAGE_UPDATE_STATES = ['investigating', 'identified', 'monitoring', 'resolved', 'maintenance'] as const;
export type StatusPageUpdateState = (typeof STATUS_PAGE_UPDATE_STATES)[number];

/** An update posted on a status page, as its members manage it. */
export interface StatusPageUpdate {
  uid: string;
  title: string;
  /** Plain text or a small Markdown subset (paragraphs, line breaks, bold, italic, code, http(s) links, bullet lists). */
  body: string;
  state: StatusPageUpdateState;
  /** Slugs of the checks it names (checks listed on the page), in order. */
  checks: string[];
  createdAt: string;
  updatedAt: string;
  /** When it was resolved; null while open. */
  resolvedAt: string | null;
}

/** An update as the public page shows it. */
export interface PublicUpdate {
  uid: string;
  title: string;
  /** The body as written. */
  body: string;
  /** The body rendered to HTML (escaped; only the Markdown subset becomes markup). */
  bodyHtml: string;
  state: StatusPageUpdateState;
  /** Names of the listed checks it names. */
  checks: string[];
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}

/** How many addresses are subscribed to a page's mail; the addresses themselves only by export. */
export interface SubscriberCounts {
  /** Confirmed: these receive mail. */
  confirmed: number;
  /** Waiting for the address's owner to confirm. */
  unconfirmed: number;
}

/** A subscriber as the page's export lists it (personal data). */
export interface Subscriber {
  uid: string;
  email: string;
  confirmedAt: string | null;
  createdAt: string;
}

/** The answer to a subscription request: the same whether or not the address was subscribed. */
export interface SubscriptionRequested {
  message: string;
}

/** One listed check: its name and health only, never its target, labels or configuration. */
export interface PublicCheck {
  name: string;
  state: PublicCheckState;
  /** The state of the newest open update naming the check; null when none does. */
  updateState: StatusPageUpdateState | null;
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
  /** Open updates first (newest first), then those resolved in the last 90 days (newest first). */
  updates: PublicUpdate[];
  /** Maintenance of the listed checks: under way, then scheduled, by start. */
  maintenance: PublicMaintenance[];
}
