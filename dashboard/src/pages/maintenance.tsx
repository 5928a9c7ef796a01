import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import type { List, MaintenanceWindow, Role } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { CheckboxField, issuesByPath, TextField } from '../components/fields';
import { coverageOf, WindowTime } from '../components/maintenance-list';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

/** `a, b` as a list, blanks dropped. */
const listOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** A local date-time input's value (no zone) read in the browser's zone, as ISO-8601 UTC. */
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : '');

/**
 * The organization's maintenance windows: when each happens next, what it covers, and a form to
 * add one (once, or repeated by an RRULE in a time zone). Covered checks keep running during a
 * window but show `maintenance`, open no incident and notify nobody.
 */
export function MaintenancePage({ org, role }: { org: string; role?: Role }) {
  usePageTitle('Maintenance');
  const path = `/orgs/${encodeURIComponent(org)}/maintenance-windows`;
  const list = useAsync(() => get<List<MaintenanceWindow>>(path), [org]);
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [title, setTitle] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [recurrence, setRecurrence] = useState('');
  const [timezone, setTimezone] = useState(browserZone);
  const [checks, setChecks] = useState('');
  const [labels, setLabels] = useState('');
  const [allChecks, setAllChecks] = useState(false);
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  const writable = canWrite(role);

  const save = (event: Event) => {
    event.preventDefault();
    setNotice(undefined);
    void action.run(async () => {
      const created = await post<MaintenanceWindow>(path, {
        title,
        startsAt: fromLocalInput(startsAt),
        endsAt: fromLocalInput(endsAt),
        ...(recurrence.trim() ? { recurrence: recurrence.trim(), timezone } : {}),
        allChecks,
        checks: listOf(checks),
        labels: Object.fromEntries(listOf(labels).map((pair) => [pair.split('=')[0], pair.split('=').slice(1).join('=')])),
      });
      setTitle('');
      setNotice(`Created maintenance window ${created.title}.`);
      list.reload();
    });
  };

  const remove = (item: MaintenanceWindow) => {
    if (!window.confirm(`Delete maintenance window ${item.title}?`)) return;
    setNotice(undefined);
    void action.run(async () => {
      await del(`${path}/${encodeURIComponent(item.uid)}`);
      setNotice(`Deleted maintenance window ${item.title}.`);
      list.reload();
    });
  };

  const issues = issuesByPath(action.error?.issues ?? []);
  return (
    <main id="main">
      <h1 tabIndex={-1}>Maintenance</h1>
      <p>
        During a maintenance window the checks it covers keep running and their results are kept, but they show <code>maintenance</code>, open no incident,
        notify nobody, and the window is left out of their uptime. When it ends they follow their results again.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={list.error ?? action.error} />
      <section aria-labelledby="maintenance-list-title">
        <h2 id="maintenance-list-title">Windows</h2>
        {list.data?.items.length ? (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Next</th>
                  <th scope="col">Repeats</th>
                  <th scope="col">Covers</th>
                  {writable ? (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((item) => (
                  <tr key={item.uid} data-maintenance={item.title}>
                    <td>
                      {item.title}
                      {item.description ? <p class="hint">{item.description}</p> : null}
                    </td>
                    <td>
                      <WindowTime window={item} />
                    </td>
                    <td>{item.recurrence ? `${item.recurrence} (${item.timezone})` : 'once'}</td>
                    <td>{coverageOf(item)}</td>
                    {writable ? (
                      <td>
                        <button type="button" class="danger" disabled={action.busy} onClick={() => remove(item)}>
                          Delete {item.title}
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : list.data ? (
          <p>No maintenance windows yet.</p>
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
      </section>
      {writable ? (
        <section aria-labelledby="maintenance-new-title">
          <h2 id="maintenance-new-title">New window</h2>
          <form class="card" onSubmit={save} noValidate>
            <TextField id="maintenance-title" label="Title" value={title} onValue={setTitle} errors={issues.get('title')} />
            <TextField
              id="maintenance-start"
              label="Starts"
              type="datetime-local"
              value={startsAt}
              onValue={setStartsAt}
              hint={`In your time zone (${browserZone}).`}
              errors={issues.get('startsAt')}
            />
            <TextField id="maintenance-end" label="Ends" type="datetime-local" value={endsAt} onValue={setEndsAt} errors={issues.get('endsAt')} />
            <TextField
              id="maintenance-recurrence"
              label="Repeats (RRULE, optional)"
              value={recurrence}
              onValue={setRecurrence}
              spellcheck={false}
              hint="An RFC 5545 rule, e.g. FREQ=WEEKLY;BYDAY=SU. Each occurrence lasts as long as the first."
              errors={issues.get('recurrence')}
            />
            <TextField
              id="maintenance-timezone"
              label="Time zone of the repetition"
              value={timezone}
              onValue={setTimezone}
              spellcheck={false}
              hint="The wall-clock time holds in this zone across daylight saving."
              errors={issues.get('timezone')}
            />
            <TextField
              id="maintenance-checks"
              label="Checks (slugs, comma-separated)"
              value={checks}
              onValue={setChecks}
              spellcheck={false}
              errors={[...issues].filter(([key]) => key.startsWith('checks')).flatMap(([, messages]) => messages)}
            />
            <TextField
              id="maintenance-labels"
              label="Labels (key=value, comma-separated)"
              value={labels}
              onValue={setLabels}
              spellcheck={false}
              hint="Covers every check holding all of them, including checks added later."
              errors={issues.get('labels')}
            />
            <CheckboxField id="maintenance-all" label="Every check of the organization" checked={allChecks} onChange={setAllChecks} />
            <button type="submit" class="primary" disabled={action.busy || !title.trim() || !startsAt || !endsAt}>
              Create window
            </button>
          </form>
        </section>
      ) : null}
    </main>
  );
}
