import { setTimeout as delay } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError } from '../client.js';
import { CliError } from '../errors.js';
import type { CommandDeps } from '../context.js';
import type { Output } from '../output.js';
import { orgPath, resolveOrg } from './checks-org.js';

/** Answers worth connecting again after: the daemon is busy, draining, or was briefly away. */
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const MAX_BACKOFF_MS = 30_000;

/**
 * `svc watch [--checks a,b]`: the organization's live events, one line each, until Ctrl-C.
 * A dropped stream is opened again with the last event's id, so what came meanwhile is replayed.
 */
export async function run(options: { org?: string; checks?: string }, deps: CommandDeps): Promise<number> {
  const org = await resolveOrg(options, deps);
  const client = deps.client();
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let lastEventId: string | undefined;
  let backoff = 1000;
  try {
    while (!stop.signal.aborted) {
      try {
        const response = await client.stream(`${orgPath(org)}/events`, {
          query: { checks: options.checks },
          headers: lastEventId ? { 'last-event-id': lastEventId } : {},
          signal: stop.signal,
        });
        if (!deps.out.jsonMode) deps.out.info(deps.out.color.gray(`watching ${org}${options.checks ? ` (checks ${options.checks})` : ''}; Ctrl-C to stop`));
        backoff = 1000;
        const parser = createParser({
          onEvent: (message) => {
            if (message.id) lastEventId = message.id;
            printEvent(deps.out, message);
          },
        });
        const decoder = new TextDecoder();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
      } catch (error) {
        if (stop.signal.aborted) break;
        // Refusals that another try would not change end the command.
        if (error instanceof ApiError && !RETRIED_STATUSES.has(error.status)) throw error;
        if (error instanceof CliError && !(error instanceof ApiError) && backoff === 1000) deps.out.warn(error.message);
      }
      if (stop.signal.aborted) break;
      deps.out.warn(`the stream dropped; connecting again in ${Math.round(backoff / 1000)} s`);
      await delay(backoff, undefined, { signal: stop.signal }).catch(() => {});
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
  return 0;
}

const STATE_COLOURS = { up: 'green', degraded: 'yellow', down: 'red', paused: 'gray', pending: 'gray' } as const;

/** One event: a JSON object per line with --json, else a line for people. */
function printEvent(out: Output, message: EventSourceMessage): void {
  let data: Record<string, any>;
  try {
    data = JSON.parse(message.data);
  } catch {
    return;
  }
  const type = message.event ?? 'message';
  if (out.jsonMode) out.line(JSON.stringify({ event: type, id: message.id ?? null, data }));
  else if (type === 'reset') out.warn(`some events could not be replayed: ${data.reason}`);
  else {
    const line = describeEvent(out.color, type, data);
    if (line) out.line(line);
  }
}

/** The line of an event for people: time, check, then what happened. */
function describeEvent(c: Output['color'], type: string, data: Record<string, any>): string | undefined {
  if (type === 'check.state') {
    const colour = STATE_COLOURS[data.state as keyof typeof STATE_COLOURS] ?? 'white';
    const message = data.message ? `  ${c.gray(String(data.message))}` : '';
    return `${c.gray(String(data.since))}  ${c.bold(String(data.slug))}  ${String(data.from)} → ${c[colour](String(data.state))}${message}`;
  }
  if (type.startsWith('incident.')) {
    const step = type.slice('incident.'.length);
    const colour = step === 'opened' ? 'red' : step === 'acknowledged' ? 'yellow' : 'green';
    return `${c.gray(String(data.at))}  ${c.bold(String(data.checkSlug ?? '-'))}  incident ${c[colour](step)}: ${String(data.title)} (${String(data.uid)})`;
  }
  if (type.startsWith('maintenance.')) {
    const step = type.slice('maintenance.'.length);
    const at = step === 'started' ? data.startsAt : data.endsAt;
    return `${c.gray(String(at))}  -  maintenance ${c.blue(step)}: ${String(data.title)} (until ${String(data.endsAt)}, ${String(data.uid)})`;
  }
  return undefined;
}
