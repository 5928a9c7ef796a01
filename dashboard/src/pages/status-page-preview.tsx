import type { PublicStatus } from './status-page-api';

const WORDS: Record<string, string> = {
  up: '✓ Operational',
  degraded: '! Degraded performance',
  down: '✕ Down',
  paused: '– Paused',
  pending: '– No data yet',
  operational: 'All systems operational',
  degraded_page: 'Degraded performance',
  'partial outage': 'Partial outage',
  'major outage': 'Major outage',
};

/** The page's data as its visitors would read it: the overall state, each check, the incidents. */
export function StatusPagePreview({ status }: { status: PublicStatus }) {
  return (
    <div class="card">
      <h3>{status.title}</h3>
      {status.description ? <p class="hint">{status.description}</p> : null}
      <p>
        <strong>{status.state === 'degraded' ? WORDS.degraded_page : WORDS[status.state]}</strong>
      </p>
      {status.checks.length ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">State</th>
                <th scope="col">Uptime, 90 days</th>
              </tr>
            </thead>
            <tbody>
              {status.checks.map((check, i) => (
                <tr key={i}>
                  <td>{check.name}</td>
                  <td>{WORDS[check.state] ?? check.state}</td>
                  <td>{check.uptime90d === null ? 'no data' : `${check.uptime90d}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No checks are listed on this page.</p>
      )}
      <h4>Incidents of the last 14 days</h4>
      {status.incidents.length ? (
        <ul class="plain-list">
          {status.incidents.map((incident, i) => (
            <li key={i}>
              {incident.title} ({incident.status}), opened {incident.openedAt.slice(0, 16).replace('T', ' ')} UTC
            </li>
          ))}
        </ul>
      ) : (
        <p>None.</p>
      )}
    </div>
  );
}
