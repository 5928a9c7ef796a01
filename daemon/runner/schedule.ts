/**
 * When a check runs: every `intervalSeconds`, at a stable offset inside the interval derived
 * from its uid, so that thousands of checks with one interval spread over it instead of all
 * firing at second 0, and every replica computes the same slots.
 */

/** FNV-1a of the uid: cheap, stable across processes and versions. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The check's offset within its interval, in milliseconds. */
export function slotOffsetMs(checkUid: string, intervalSeconds: number): number {
  return hash(checkUid) % (intervalSeconds * 1000);
}

/** The first slot of the check strictly after `afterMs` (epoch ms). */
export function nextSlot(checkUid: string, intervalSeconds: number, afterMs: number): number {
  const period = intervalSeconds * 1000;
  const offset = slotOffsetMs(checkUid, intervalSeconds);
  return (Math.floor((afterMs - offset) / period) + 1) * period + offset;
}
