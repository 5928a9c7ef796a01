import type { CheckState } from '../api/types';

/** A symbol per state, so the state never rests on colour alone. */
const SYMBOLS: Record<CheckState, string> = { up: '▲', degraded: '◆', down: '▼', paused: '‖', pending: '…', maintenance: '⚙' };

/** A check's state as a coloured badge with a symbol and the word. */
export function StateBadge({ state }: { state: CheckState }) {
  return (
    <span class={`state state-${state}`} data-state={state}>
      <span aria-hidden="true">{SYMBOLS[state]}</span> {state}
    </span>
  );
}
