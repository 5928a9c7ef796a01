import { useEffect, useState } from 'preact/hooks';
import { get, put } from '../api/client';
import { channelsPath, type Channel } from '../api/channels';
import { asApiError, type ApiError } from '../api/errors';
import type { CheckChannels as CheckChannelChoice, Page } from '../api/types';
import { useAsync } from '../lib/use-async';
import { CheckboxField } from './fields';
import { ErrorBanner } from './error-banner';

/** A check's choice of notification channels; none chosen means the default channels. */
export function CheckChannels({ org, slug, writer }: { org: string; slug: string; writer: boolean }) {
  const path = `/orgs/${encodeURIComponent(org)}/checks/${encodeURIComponent(slug)}/channels`;
  const channels = useAsync(() => get<Page<Channel>>(channelsPath(org), { query: { limit: '200' } }), [org]);
  const chosen = useAsync(() => get<CheckChannelChoice>(path), [path]);
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  useEffect(() => setSelected(chosen.data?.channels ?? []), [chosen.data]);
  const save = async () => {
    setError(undefined);
    setSaved(false);
    try {
      setSelected((await put<CheckChannelChoice>(path, { channels: selected })).channels);
      setSaved(true);
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  if (channels.error || chosen.error) return <ErrorBanner error={channels.error ?? chosen.error} />;
  if (!channels.data || !chosen.data) return null;
  return (
    <section aria-labelledby="check-channels">
      <h2 id="check-channels">Notification channels</h2>
      {channels.data.items.length === 0 ? <p>No channels in this organization yet.</p> : null}
      {channels.data.items.map((channel) => (
        <CheckboxField
          key={channel.uid}
          id={`check-channel-${channel.uid}`}
          label={`${channel.name} (${channel.type}${channel.default ? ', default' : ''})`}
          checked={selected.includes(channel.uid)}
          onChange={(on) => setSelected(on ? [...selected, channel.uid] : selected.filter((uid) => uid !== channel.uid))}
        />
      ))}
      <p class="hint">
        {selected.length === 0
          ? 'None chosen: incidents go to the default channels.'
          : `Incidents go to the ${selected.length} chosen channel${selected.length === 1 ? '' : 's'}.`}
      </p>
      <ErrorBanner error={error} title="Not saved" />
      {writer && channels.data.items.length ? (
        <button type="button" onClick={() => void save()}>
          Save channels
        </button>
      ) : null}
      {saved ? <p role="status">Saved.</p> : null}
    </section>
  );
}
