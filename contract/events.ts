// The server-sent events of `GET /orgs/{org}/events`: each event's name and the JSON of its data.
import type { CheckResult, IncidentResolution } from './responses.js';
import type { CheckState, IncidentStatus } from './states.js';

/** `check.state`: a check changed state at `since`; `message` is the result that changed it. */
export interface CheckStateEvent {
  slug: string;
  state: CheckState;
  from: CheckState;
  since: string;
  message: string | null;
  incidentUid: string | null;
}

/** `check.result`: a run of a check the stream follows run by run (`?results=`); sent without an id. */
export interface CheckResultEvent extends CheckResult {
  slug: string;
}

/** `incident.opened`, `incident.acknowledged`, `incident.resolved`. */
export interface IncidentEvent {
  uid: string;
  title: string;
  checkSlug: string | null;
  status: IncidentStatus;
  at: string;
  /** Only when resolved. */
  resolution?: IncidentResolution | null;
}

/** `maintenance.started`, `maintenance.ended`: an occurrence of a maintenance window began or ended. */
export interface MaintenanceEvent {
  uid: string;
  title: string;
  /** The occurrence's start and end. */
  startsAt: string;
  endsAt: string;
}

/** `reset`: the missed events cannot be replayed; read the current state again. */
export interface ResetEvent {
  reason: string;
}

/** Every event by its name. */
export interface OrgEventData {
  'check.state': CheckStateEvent;
  'check.result': CheckResultEvent;
  'incident.opened': IncidentEvent;
  'incident.acknowledged': IncidentEvent;
  'incident.resolved': IncidentEvent;
  'maintenance.started': MaintenanceEvent;
  'maintenance.ended': MaintenanceEvent;
  reset: ResetEvent;
}
