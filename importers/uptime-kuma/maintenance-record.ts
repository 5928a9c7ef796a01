// One row of the 2.x `maintenance` table (db/knex_init_db.js, with the cron, timezone and
// duration columns of 2023-06-30-1401-maintenance-cron and last_start_date of
// 2025-06-13-0000-maintenance-add-last-start) and the monitors `monitor_maintenance` links to it.

/** A maintenance entry of the self-hosted monitor, its columns as stored (null when absent). */
export interface MaintenanceRecord {
  readonly id: number;
  readonly title: string;
  readonly description: string | null;
  readonly active: boolean;
  /** `manual`, `single`, `recurring-interval`, `recurring-weekday`, `recurring-day-of-month` or `cron`. */
  readonly strategy: string;
  /** `YYYY-MM-DD HH:mm:ss`, wall-clock time in the entry's time zone. */
  readonly startDate: string | null;
  readonly endDate: string | null;
  /** `HH:mm` or `HH:mm:ss`: the daily time range of the recurring strategies. */
  readonly startTime: string | null;
  readonly endTime: string | null;
  /** JSON lists as stored: weekday numbers (0 = Sunday), month days (1..31 or `lastDay1..4`). */
  readonly weekdays: string | null;
  readonly daysOfMonth: string | null;
  readonly intervalDay: number | null;
  readonly cron: string | null;
  /** An IANA time zone, `SAME_AS_SERVER`, or null (the server's). */
  readonly timezone: string | null;
  /** Seconds. */
  readonly duration: number | null;
  /** The ids of the monitors it covers, in link order. */
  readonly monitorIds: readonly number[];
}
