import { useState } from 'preact/hooks';
import { get, put } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Account, NotificationSettings } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { CheckboxField, FieldShell, issuesByPath, TextField } from '../components/fields';
import { useAsync } from '../lib/use-async';

const EVENTS: { event: string; label: string }[] = [
  { event: 'incident.opened', label: 'An incident opens' },
  { event: 'incident.acknowledged', label: 'An incident is acknowledged' },
  { event: 'incident.resolved', label: 'An incident is resolved' },
  { event: 'check.down', label: 'A check goes down' },
  { event: 'check.up', label: 'A check comes back up' },
];

/** The member's own notification settings per organization (a viewer may change these too). */
export function NotificationsSection({ account }: { account: Account }) {
  const [org, setOrg] = useState(account.organizations[0]?.slug ?? '');
  if (!org) return null;
  return (
    <section aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      {account.organizations.length > 1 ? (
        <FieldShell id="notifications-org" label="Organization">
          <select id="notifications-org" value={org} onChange={(e) => setOrg((e.currentTarget as HTMLSelectElement).value)}>
            {account.organizations.map((o) => (
              <option key={o.slug} value={o.slug}>
                {o.name || o.slug}
              </option>
            ))}
          </select>
        </FieldShell>
      ) : null}
      <NotificationsForm key={org} org={org} />
    </section>
  );
}

function NotificationsForm({ org }: { org: string }) {
  const loaded = useAsync(() => get<NotificationSettings>('/auth/me/notification-settings', { query: { org } }), [org]);
  if (loaded.error) return <ErrorBanner error={loaded.error} />;
  if (!loaded.data) return <p aria-busy="true">Loading…</p>;
  return <NotificationsEditor org={org} stored={loaded.data} />;
}

/** The form, starting from the stored settings: its first paint already shows them. */
function NotificationsEditor({ org, stored }: { org: string; stored: NotificationSettings }) {
  const [email, setEmail] = useState(stored.email);
  const [events, setEvents] = useState<string[]>(stored.events);
  const [quiet, setQuiet] = useState(!!stored.quietHours);
  const [start, setStart] = useState(stored.quietHours?.start ?? '22:00');
  const [end, setEnd] = useState(stored.quietHours?.end ?? '07:00');
  const [zone, setZone] = useState(() => stored.quietHours?.timeZone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'));
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const issues = issuesByPath(error?.issues ?? []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await put('/auth/me/notification-settings', { email, events, quietHours: quiet ? { start, end, timeZone: zone } : null }, { query: { org } });
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-label={`Notifications in ${org}`}>
      {saved ? <Notice>Notification settings saved.</Notice> : null}
      <ErrorBanner error={error} title="Not saved" />
      <CheckboxField id="notify-email" label="Send me e-mail" checked={email} onChange={setEmail} errors={issues.get('email')} />
      <fieldset>
        <legend>About</legend>
        {EVENTS.map(({ event, label }) => (
          <CheckboxField
            key={event}
            id={`notify-${event.replace('.', '-')}`}
            label={label}
            checked={events.includes(event)}
            onChange={(on) => setEvents(on ? [...events, event] : events.filter((e) => e !== event))}
          />
        ))}
      </fieldset>
      <CheckboxField id="notify-quiet" label="Quiet hours (hold notifications back daily)" checked={quiet} onChange={setQuiet} />
      {quiet ? (
        <div class="grid">
          <TextField id="quiet-start" label="From" type="time" value={start} onValue={setStart} errors={issues.get('quietHours.start')} />
          <TextField id="quiet-end" label="Until" type="time" value={end} onValue={setEnd} errors={issues.get('quietHours.end')} />
          <TextField
            id="quiet-zone"
            label="Time zone"
            value={zone}
            onValue={setZone}
            hint="An IANA time zone such as Europe/Berlin."
            errors={issues.get('quietHours.timeZone')}
          />
        </div>
      ) : null}
      <button type="submit">Save notifications</button>
    </form>
  );
}
