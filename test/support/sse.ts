/** One server-sent event as a client reads it. */
export interface ReadEvent {
  event: string;
  id?: string;
  data: any;
}

/** An open `text/event-stream` read with fetch: its status, and the events as they come. */
export interface SseClient {
  status: number;
  headers: Headers;
  /** The next event matching (skipping the others), or a failure after `timeoutMs`. */
  next(match?: (event: ReadEvent) => boolean, timeoutMs?: number): Promise<ReadEvent>;
  close(): void;
}

/** Opens an event stream with a bearer token (and a Last-Event-ID when given). */
export async function openEvents(url: string, token: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const queue: ReadEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let broke = false;
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((line) => line && !line.startsWith(':'))
                .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
            );
            if (fields.event) queue.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') });
            wake?.();
          }
        }
      } catch {
        // Aborted by the client, or the connection was cut without the response's end.
        broke = true;
      }
      ended = true;
      wake?.();
    })();
  }
  return {
    status: response.status,
    headers: response.headers,
    async next(match = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = queue.findIndex(match);
        if (index >= 0) return queue.splice(0, index + 1).pop()!;
        queue.length = 0;
        if (ended) throw new Error(broke ? 'the stream broke off before the event came' : 'the stream ended before the event came');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    close: () => abort.abort(),
  };
}
