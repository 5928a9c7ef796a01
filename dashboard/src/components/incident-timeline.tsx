import type { Incident } from '../api/types';
import { formatDate } from '../lib/format';

type Person = Incident['openedBy'];

/** Why the system resolved an incident, in words. */
export const RESOLUTION_WORDS: Record<NonNullable<Incident['resolution']>, string> = {
  recovered: 'the check recovered',
  'check-paused': 'the check was paused',
  'check-deleted': 'the check was deleted',
};

/** Who did a step: the member's name and address, or the monitoring system when nobody did. */
const byWhom = (person: Person): string => (person ? `by ${person.name || person.email} (${person.email})` : 'by the system');

/** An incident's steps in order: opened, acknowledged, resolved, each with when and by whom. */
export function IncidentTimeline({ incident }: { incident: Incident }) {
  const steps: Array<{ step: string; at: string; who: Person }> = [{ step: 'Opened', at: incident.createdAt, who: incident.openedBy }];
  if (incident.acknowledgedAt) steps.push({ step: 'Acknowledged', at: incident.acknowledgedAt, who: incident.acknowledgedBy });
  if (incident.resolvedAt) steps.push({ step: 'Resolved', at: incident.resolvedAt, who: incident.resolvedBy });
  return (
    <ol class="timeline" aria-label={`Timeline of ${incident.title}`}>
      {steps.map(({ step, at, who }) => (
        <li key={step} data-step={step.toLowerCase()}>
          <strong>{step}</strong> <time dateTime={at}>{formatDate(at)}</time> {byWhom(who)}
          {step === 'Resolved' && incident.resolution ? <span class="resolution">: {RESOLUTION_WORDS[incident.resolution]}</span> : null}
        </li>
      ))}
    </ol>
  );
}
