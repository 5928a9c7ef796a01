import { flagValue, importDescription, importLabels, integerValue, textValue, type CheckCandidate, type ItemScope } from '../converter.js';

// One check of the cron monitor's Management API v3 listing (its docs, "List Existing Checks":
// templates/docs/api.md of healthchecks/healthchecks) as a heartbeat check.

/** A check's fields as the listing holds them. */
type Fields = Readonly<Record<string, unknown>>;

/** The deadline is evaluated every minute, or every period when that is shorter. */
const EVALUATION_SECONDS = 60;

/** The canonical text of a UUID, as the tool's ping URLs end. */
const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

const text = (fields: Fields, key: string) => {
  const value = textValue(fields[key]);
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};

/** The item's name in warnings: its name, else its slug, else its place. */
export function checkItem(fields: Fields | undefined, index: number): string {
  return (fields && (text(fields, 'name') ?? text(fields, 'slug'))) ?? `check #${index + 1}`;
}

/** The tool's own guess of a schedule's kind: one line of five fields is cron, anything else systemd OnCalendar. */
const isCron = (schedule: string) => !schedule.includes('\n') && schedule.split(/\s+/).length === 5;

/** How the check's pings are identified: the UUID of its ping URL, kept as the ping token. */
function pingToken(fields: Fields, scope: ItemScope): string | undefined {
  const url = text(fields, 'ping_url');
  const uuid = url === undefined ? undefined : UUID.exec(url)?.[1]?.toLowerCase();
  if (uuid !== undefined) return uuid;
  if (text(fields, 'unique_key') !== undefined) {
    scope.warn(
      'SECRET_DROPPED',
      "the listing was made with a read-only API key, which leaves out the ping URL, so the check's UUID could not be kept: " +
        "import with the full API key to keep /ping/<uuid> working, or point the job at the new check's ping URL",
      'unique_key',
    );
  } else {
    scope.warn('SECRET_DROPPED', "the check has no ping URL: point the job at the new check's ping URL", 'ping_url');
  }
  return undefined;
}

/** The grace time: the tool allows up to a year, the catalog 7 days. */
function graceSeconds(fields: Fields, scope: ItemScope): number {
  return scope.heartbeatGraceSeconds(integerValue(fields.grace) ?? 3600, 'grace');
}

/** The settings with no equivalent here, each said once. */
function dropUnsupported(fields: Fields, scope: ItemScope): void {
  if (text(fields, 'methods') === 'POST') {
    scope.warn('UNSUPPORTED_SETTING', 'only POST pings were accepted in the tool; the check here accepts HEAD, GET and POST', 'methods');
  }
  const keywords = ['start_kw', 'success_kw', 'failure_kw'].filter((key) => text(fields, key) !== undefined);
  if (keywords.length > 0 || flagValue(fields.filter_subject) === true || flagValue(fields.filter_body) === true) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `keywords that decide a ping's kind from its body or e-mail subject (${[...keywords, 'filter_subject', 'filter_body']
        .filter((key) => keywords.includes(key) || flagValue(fields[key]) === true)
        .join(', ')}) have no equivalent: a ping counts as its URL says (/start, /fail, /<exit status>)`,
      keywords[0] ?? (flagValue(fields.filter_subject) === true ? 'filter_subject' : 'filter_body'),
    );
  }
  const paused = text(fields, 'status') === 'paused';
  if (paused && flagValue(fields.manual_resume) !== true) {
    scope.warn('UNSUPPORTED_SETTING', 'a ping resumed the paused check in the tool; here a paused check ignores pings until it is enabled', 'manual_resume');
  }
  if (text(fields, 'channels') !== undefined) {
    scope.warn(
      'NOTIFICATIONS_DROPPED',
      'the integrations of the check were not imported (notification bindings never carry over): set up alerting for it again',
      'channels',
    );
  }
}

/** Why a check produces nothing, for the builder's skip. */
export interface Skip {
  skip: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM';
  message: string;
  field?: string;
}

/**
 * Converts one check: a simple check (`timeout`, `grace`) to a heartbeat with a period, a cron
 * check (`schedule`, `tz`, `grace`) to one with a schedule; `tags` (space-separated) become
 * labels, `desc` the description, status `paused` a disabled check, and the UUID of the ping
 * URL the ping token. OnCalendar schedules have no equivalent and are skipped.
 */
export function checkCandidate(fields: Fields, name: string, scope: ItemScope): CheckCandidate | Skip {
  const schedule = text(fields, 'schedule');
  const timeout = integerValue(fields.timeout);
  let config: Record<string, unknown>;
  let intervalSeconds = EVALUATION_SECONDS;
  if (schedule !== undefined) {
    if (!isCron(schedule)) {
      return {
        skip: 'UNSUPPORTED_TYPE',
        message: 'systemd OnCalendar schedules have no equivalent (only cron expressions); the check was skipped',
        field: 'schedule',
      };
    }
    config = { schedule, timezone: text(fields, 'tz') ?? 'UTC' };
  } else if (timeout !== undefined) {
    const periodSeconds = scope.heartbeatPeriodSeconds(timeout, 'timeout');
    config = { periodSeconds };
    intervalSeconds = Math.min(EVALUATION_SECONDS, periodSeconds);
  } else {
    return { skip: 'INVALID_ITEM', message: 'the check has neither a timeout nor a schedule', field: 'timeout' };
  }
  dropUnsupported(fields, scope);
  const tags = (text(fields, 'tags') ?? '').split(/\s+/).filter((tag) => tag !== '');
  const token = pingToken(fields, scope);
  return {
    name,
    type: 'heartbeat',
    enabled: text(fields, 'status') !== 'paused',
    intervalSeconds,
    config: { ...config, graceSeconds: graceSeconds(fields, scope) },
    thresholds: { failuresBeforeDown: 1 },
    labels: importLabels(
      tags.map((tag) => [tag, ''] as const),
      scope,
      'tags',
    ),
    description: importDescription(text(fields, 'desc'), scope, 'desc'),
    ...(token !== undefined ? { pingToken: token } : {}),
  };
}
