// Maintenance windows as the API answers them. Types only.

/** One occurrence of a window: ISO-8601 UTC, end excluded. */
export interface MaintenanceOccurrence {
  startsAt: string;
  endsAt: string;
}

/**
 * A span during which the checks a window covers still run, but show `maintenance`, open no
 * incident, notify nobody and leave the span out of their uptime.
 */
export interface MaintenanceWindow {
  uid: string;
  title: string;
  description: string | null;
  /** The first occurrence; with a recurrence, every occurrence lasts as long. */
  startsAt: string;
  endsAt: string;
  /** An RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=SU;BYHOUR=2`) read in `timezone`, or null for once. */
  recurrence: string | null;
  /** The IANA time zone of the recurrence's wall-clock times. */
  timezone: string;
  /** Every check of the organization, including checks added later. */
  allChecks: boolean;
  /** The checks named, by slug. */
  checks: string[];
  /** A check whose labels hold every pair is covered too, including checks added later. */
  labels: Record<string, string>;
  /** Whether an occurrence is under way now. */
  active: boolean;
  /** The occurrence under way, else the next one; null when none is left. */
  occurrence: MaintenanceOccurrence | null;
  createdAt: string;
  updatedAt: string;
}

/** A maintenance window as a public status page shows it: under way, or the next one scheduled. */
export interface PublicMaintenance {
  /** The window's uid: the feed's entry id is made from it and the occurrence's start. */
  uid: string;
  title: string;
  description: string | null;
  /** The occurrence under way or the next one. */
  startsAt: string;
  endsAt: string;
  active: boolean;
  /** The names of the page's checks it covers. */
  checks: string[];
  updatedAt: string;
}
