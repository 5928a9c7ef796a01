import { useState } from 'preact/hooks';
import { get, patch, post } from '../api/client';
import {
  CHANNEL_TYPES,
  channelsPath,
  channelTypesPath,
  type Channel,
  type ChannelDelivery,
  type ChannelTestResult,
  type ChannelTypeInfo,
} from '../api/channels';
import { ApiError, asApiError } from '../api/errors';
import type { Page, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { CheckboxField, FieldShell, issuesByPath, TextField } from '../components/fields';
import { formatDate } from '../lib/format';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';

/**
 * Notification channels: list, create, edit (secrets are write-only: the API answers them
 * masked, and a masked value sent back keeps the stored secret), send a test, read deliveries.
 */
export function ChannelsPage({ org, role }: { org: string; role?: Role }) {
  usePageTitle('Notification channels');
  const list = useAsync(() => get<Page<Channel>>(channelsPath(org), { query: { limit: '200' } }), [org]);
  const writer = canWrite(role);
  return (
    <main id="main">
      <h1 tabIndex={-1}>Notification channels</h1>
      <p class="lead">Incidents of a check go to the channels it chose, or to the default channels when it chose none.</p>
      {writer ? <ChannelForm org={org} onSaved={list.reload} /> : null}
      <ErrorBanner error={list.error} />
      {list.data && list.data.items.length === 0 ? <p>No channels yet.</p> : null}
      <ul class="plain-list">
        {list.data?.items.map((channel) => (
          <ChannelCard key={channel.uid} org={org} channel={channel} writer={writer} onSaved={list.reload} />
        ))}
      </ul>
    </main>
  );
}

function ChannelCard({ org, channel, writer, onSaved }: { org: string; channel: Channel; writer: boolean; onSaved(): void }) {
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [test, setTest] = useState<ChannelTestResult>();
  const [error, setError] = useState<ApiError>();
  const sendTest = async () => {
    setError(undefined);
    setTest(undefined);
    try {
      setTest(await post<ChannelTestResult>(`${channelsPath(org)}/${encodeURIComponent(channel.uid)}/test`));
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  return (
    <li class="card" data-channel={channel.name}>
      <p>
        <strong>{channel.name}</strong> <span class="badge">{channel.type}</span> {channel.default ? <span class="badge">default</span> : null}
      </p>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the settings block for screen readers and tests */}
      <pre class="mono" aria-label="Settings, secrets masked">
        {JSON.stringify(channel.config, null, 2)}
      </pre>
      <div class="button-row">
        {writer ? (
          <>
            <button type="button" onClick={() => void sendTest()}>
              Send a test
            </button>
            <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit
            </button>
          </>
        ) : null}
        <button type="button" onClick={() => setShowLog(!showLog)} aria-expanded={showLog}>
          Deliveries
        </button>
      </div>
      <ErrorBanner error={error} title="Not sent" />
      {test ? (
        <p role="status" class={test.ok ? 'success' : 'hint'} data-test-result={test.ok ? 'ok' : 'failed'}>
          {test.ok ? `Test message delivered${test.responseCode ? ` (${test.responseCode})` : ''}.` : `Test message not delivered: ${test.error}`}
        </p>
      ) : null}
      {editing ? (
        <ChannelForm
          org={org}
          channel={channel}
          onSaved={() => {
            setEditing(false);
            onSaved();
          }}
        />
      ) : null}
      {showLog ? <DeliveryLog org={org} uid={channel.uid} /> : null}
    </li>
  );
}

function DeliveryLog({ org, uid }: { org: string; uid: string }) {
  const log = useAsync(() => get<Page<ChannelDelivery>>(`${channelsPath(org)}/${encodeURIComponent(uid)}/deliveries`, { query: { limit: '50' } }), [org, uid]);
  if (log.error) return <ErrorBanner error={log.error} />;
  if (!log.data) return <p aria-busy="true">Loading…</p>;
  if (log.data.items.length === 0) return <p>No deliveries yet.</p>;
  return (
    <table class="deliveries">
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Code</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {log.data.items.map((d) => (
          <tr key={d.uid} data-delivery-status={d.status}>
            <td>{formatDate(d.createdAt)}</td>
            <td>{d.event}</td>
            <td>{d.status === 'pending' && d.nextAttemptAt ? `pending (next ${formatDate(d.nextAttemptAt)})` : d.status}</td>
            <td>{d.attempts}</td>
            <td>{d.responseCode ?? ''}</td>
            <td>{d.error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Creates a channel, or edits one: its settings start as the masked ones, so secrets stay unless replaced. */
function ChannelForm({ org, channel, onSaved }: { org: string; channel?: Channel; onSaved(): void }) {
  const prefix = channel ? `edit-${channel.uid}` : 'new-channel';
  const [name, setName] = useState(channel?.name ?? '');
  const types = useAsync(() => get<ChannelTypeInfo[]>(channelTypesPath), []);
  const [type, setType] = useState<string>(channel?.type ?? 'webhook');
  const [config, setConfig] = useState<string | undefined>(channel ? JSON.stringify(channel.config, null, 2) : undefined);
  const info = types.data?.find((t) => t.type === type);
  const sampleOf = (name: string) => {
    const sample = types.data?.find((t) => t.type === name)?.sample;
    return sample ? JSON.stringify(sample, null, 2) : '';
  };
  // A new channel starts from its type's sample until its settings are edited.
  const shown = config ?? sampleOf(type);
  const chooseType = (next: string) => {
    if (!channel && config === sampleOf(type)) setConfig(undefined);
    setType(next);
  };
  const [isDefault, setDefault] = useState(channel?.default ?? false);
  const [error, setError] = useState<ApiError>();
  const issues = issuesByPath(error?.issues ?? []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(shown);
    } catch {
      setError(new ApiError(400, 'VALIDATION_FAILED', 'The settings are not valid JSON.', { issues: [{ path: 'config', message: 'must be a JSON object' }] }));
      return;
    }
    try {
      if (channel)
        await patch(`${channelsPath(org)}/${encodeURIComponent(channel.uid)}`, {
          name,
          ...(type !== channel.type ? { type } : {}),
          config: parsed,
          default: isDefault,
        });
      else await post(channelsPath(org), { name, type, config: parsed, default: isDefault });
      if (!channel) {
        setName('');
        setConfig(undefined);
      }
      onSaved();
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  const body = (
    <form onSubmit={submit}>
      <ErrorBanner error={error} title="Not saved" />
      <TextField id={`${prefix}-name`} label="Name" value={name} onValue={setName} required errors={issues.get('name')} />
      <FieldShell id={`${prefix}-type`} label="Type" errors={issues.get('type')}>
        <select id={`${prefix}-type`} value={type} onChange={(e) => chooseType((e.currentTarget as HTMLSelectElement).value)}>
          {(types.data ?? CHANNEL_TYPES.map((t) => ({ type: t, title: t }))).map((t) => (
            <option key={t.type} value={t.type}>
              {t.title}
            </option>
          ))}
        </select>
      </FieldShell>
      <FieldShell
        id={`${prefix}-config`}
        label="Settings (JSON)"
        hint={[
          info?.description,
          info && info.secrets.length > 0 ? `Secrets (${info.secrets.join(', ')}) are only ever shown masked.` : undefined,
          channel ? 'Secrets show masked and stay as they are unless you replace them.' : 'Replace the sample values with your own.',
        ]
          .filter(Boolean)
          .join(' ')}
        errors={[
          ...(issues.get('config') ?? []),
          ...[...issues].filter(([path]) => path.startsWith('config.')).map(([path, messages]) => `${path.slice(7)}: ${messages.join(', ')}`),
        ]}
      >
        <textarea id={`${prefix}-config`} class="mono" rows={6} value={shown} onInput={(e) => setConfig((e.currentTarget as HTMLTextAreaElement).value)} />
      </FieldShell>
      <CheckboxField id={`${prefix}-default`} label="Default channel (for checks that choose none)" checked={isDefault} onChange={setDefault} />
      <button type="submit">{channel ? 'Save' : 'Create channel'}</button>
    </form>
  );
  return channel ? (
    body
  ) : (
    <details class="card">
      <summary>New channel</summary>
      {body}
    </details>
  );
}
