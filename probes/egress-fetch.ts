import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { EgressPolicy } from './egress.js';
import { sharedDispatcher } from './http-dispatcher.js';

// One pooled dispatcher per policy: its connector resolves every host (each redirect hop's too)
// through the policy and connects to the address it allowed, so a name cannot be re-pointed
// between the check and the connection.
const dispatchers = new WeakMap<EgressPolicy, Dispatcher>();

function pooledDispatcher(egress: EgressPolicy): Dispatcher {
  let dispatcher = dispatchers.get(egress);
  if (!dispatcher) {
    dispatcher = sharedDispatcher(egress);
    dispatchers.set(egress, dispatcher);
  }
  return dispatcher;
}

/**
 * A `fetch` whose every connection goes through the egress policy: the one way the daemon makes
 * HTTP requests that are not a check's run or a notification (SAML metadata, sign-in providers).
 * A refused address fails the request as `fetch` fails it (`TypeError: fetch failed`), with the
 * policy's words in its cause; `egressRefusal` finds them.
 */
export function egressFetch(egress: EgressPolicy): typeof fetch {
  const dispatcher = pooledDispatcher(egress);
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
}

/** The egress policy's refusal behind a failed request (`egress policy refuses ...`), if that is why it failed. */
export function egressRefusal(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message.startsWith('egress policy refuses ')) return current.message;
  }
  return undefined;
}
