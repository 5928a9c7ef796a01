import { withoutControlCharacters } from '../plain-text.js';

// What a notification says. The outbox stores the facts (never a secret); the words and the
// dashboard link are made at delivery, so a changed base URL applies to messages still queued.

/** The events that produce a notification. */
export type NotificationEvent = 'incident.opened' | 'incident.acknowledged' | 'incident.resolved' | 'check.flapping' | 'test';

/** The facts of one notification, as stored in the outbox. */
export interface NotificationFacts {
  event: NotificationEvent;
  organization: { uid: string; slug: string; name: string };
  incident: { uid: string; title: string; status: string; createdAt: string; acknowledgedAt: string | null; resolvedAt: string | null } | null;
  check: { uid: string; slug: string; name: string; type: string; target: string } | null;
  occurredAt: string;
  /** The last result's message of the check (e.g. "connection refused"), when one is recorded. */
  lastResultMessage: string | null;
  /** Set on `check.flapping`: how many incidents the check had in the window. */
  flapping?: { incidents: number; windowMinutes: number };
}

/** A notification in words, ready for any channel. */
export interface RenderedMessage {
  /** One line: what happened. */
  title: string;
  /** Several lines: title, check, state, since when, last result, link. */
  text: string;
  /** The check (or the incident list) in the dashboard. */
  link: string;
  /** Whether the event means trouble (opened, flapping) or relief (acknowledged, resolved). */
  severity: 'critical' | 'info' | 'ok';
}

const HEADLINES: Record<NotificationEvent, string> = {
  'incident.opened': 'Incident opened',
  'incident.acknowledged': 'Incident acknowledged',
  'incident.resolved': 'Incident resolved',
  'check.flapping': 'Check is flapping',
  test: 'Test notification',
};

const STATES: Record<string, string> = { open: 'DOWN (open incident)', acknowledged: 'DOWN (acknowledged)', resolved: 'UP (resolved)' };

/** The dashboard address of the check, or of the incidents when there is no check. */
export function dashboardLink(baseUrl: string, facts: NotificationFacts): string {
  const base = baseUrl.replace(/\/+$/, '');
  const org = encodeURIComponent(facts.organization.slug);
  return facts.check ? `${base}/orgs/${org}/checks/${encodeURIComponent(facts.check.slug)}` : `${base}/orgs/${org}/incidents`;
}

/**
 * One line of text from a value that members or monitored servers control (names, targets,
 * titles, result messages): every run of control characters becomes a space, so that nobody can
 * forge lines ("Last result: ...", a link) into a line-based body or headers into a subject.
 */
const oneLine = (value: string): string => withoutControlCharacters(value);

/** Renders the facts into words. */
export function renderMessage(facts: NotificationFacts, baseUrl: string): RenderedMessage {
  const subject = oneLine(facts.check ? facts.check.name : (facts.incident?.title ?? facts.organization.name));
  const title = `${HEADLINES[facts.event]}: ${subject}`;
  const link = dashboardLink(baseUrl, facts);
  const lines = [title];
  if (facts.check) lines.push(`Check: ${oneLine(facts.check.name)} (${oneLine(facts.check.type)} ${oneLine(facts.check.target)})`);
  if (facts.incident) {
    lines.push(`Incident: ${oneLine(facts.incident.title)}`);
    lines.push(`State: ${STATES[facts.incident.status] ?? oneLine(facts.incident.status)}`);
    const since = facts.incident.status === 'resolved' ? facts.incident.resolvedAt : facts.incident.createdAt;
    if (since) lines.push(`Since: ${since}`);
  }
  if (facts.flapping) {
    lines.push(
      `${facts.flapping.incidents} incidents in the last ${facts.flapping.windowMinutes} minutes; single messages about this check are held back until it settles.`,
    );
  }
  if (facts.lastResultMessage) lines.push(`Last result: ${oneLine(facts.lastResultMessage)}`);
  if (facts.event === 'test') lines.push(`Organization: ${oneLine(facts.organization.name)}. If you can read this, the channel works.`);
  lines.push(link);
  const severity = facts.event === 'incident.opened' || facts.event === 'check.flapping' ? 'critical' : facts.event === 'incident.resolved' ? 'ok' : 'info';
  return { title, text: lines.join('\n'), link, severity };
}
