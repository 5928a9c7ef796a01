import type { LiveStatus } from '../lib/live-events';
import { POLL_MS } from '../lib/use-live-updates';

/** Whether the view follows the live events, or reads the API every few seconds while they are away. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <span class={`live-status live-${status}`} data-live={status}>
      {status === 'live' ? (
        <>
          <span aria-hidden="true">●</span> Live
        </>
      ) : status === 'down' ? (
        `Live updates are away; reading every ${POLL_MS / 1000} s`
      ) : null}
    </span>
  );
}
