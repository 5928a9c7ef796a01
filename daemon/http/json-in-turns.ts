import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The entries of a list written in one turn of the event loop. */
export const ENTRIES_PER_TURN = 500;

type Answer = Record<string, unknown>;

/** Whether `value` is an object with a list longer than one turn's worth (an import's answer for 10,000 monitors). */
function holdsLongList(value: unknown): value is Answer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).some((inner) => Array.isArray(inner) && inner.length > ENTRIES_PER_TURN);
}

/**
 * The JSON text of `answer`, byte for byte what `JSON.stringify(answer)` gives, in pieces: each
 * list of its own longer than ENTRIES_PER_TURN is written ENTRIES_PER_TURN entries a turn.
 */
async function* pieces(answer: Answer): AsyncGenerator<string> {
  let pending = '{';
  let first = true;
  const member = (key: string) => {
    const text = `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    return text;
  };
  for (const [key, value] of Object.entries(answer)) {
    if (!Array.isArray(value) || value.length <= ENTRIES_PER_TURN) {
      const text: string | undefined = JSON.stringify(value);
      // Undefined for what JSON.stringify leaves out of an object (undefined, functions, symbols).
      if (text !== undefined) pending += `${member(key)}${text}`;
      continue;
    }
    yield `${pending}${member(key)}[`;
    for (let start = 0; start < value.length; start += ENTRIES_PER_TURN) {
      await nextTurn();
      const entries = JSON.stringify(value.slice(start, start + ENTRIES_PER_TURN));
      yield `${start > 0 ? ',' : ''}${entries.slice(1, -1)}`;
    }
    pending = ']';
  }
  yield `${pending}}`;
}

/**
 * A route's answer as the response body: as it is (Koa writes it as JSON in one go), or, when it
 * holds a long list, as a stream of its JSON text written a part a turn, so that answering 10,000
 * entries does not hold the event loop for tens of milliseconds (serialising and writing).
 */
export function jsonInTurns(answer: unknown): unknown {
  return holdsLongList(answer) ? Readable.from(pieces(answer), { objectMode: false }) : answer;
}
