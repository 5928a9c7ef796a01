import type { FailureLog } from '../failure-log.js';

/** A running outbox loop of one daemon. */
export interface PollingLoop {
  /** Stops leasing and waits for the deliveries under way. */
  stop(): Promise<void>;
}

/** What the loop asks of its outbox. */
export interface PollingLoopOptions<Row extends { uid: string }> {
  /** Deliveries under way at once. */
  slots: number;
  /** How long the loop sleeps when nothing more is due. */
  intervalMs: number;
  /** Leases up to `limit` due messages, none of the lanes in `leaveOut` (always empty for an outbox of one lane). */
  lease: (limit: number, leaveOut: readonly string[], isStopping: () => boolean) => Promise<Row[]>;
  /**
   * Lanes (channels) of messages, each with its share of the slots: a receiver that hangs until
   * its timeout holds `slotsPerLane` slots at most, and the others keep the rest. Without it the
   * outbox is one lane whose share is all the slots.
   */
  lanes?: { slotsPerLane: number; laneOf: (row: Row) => string };
  /** Delivers one message and records how it went; never rejects. */
  deliver: (row: Row) => Promise<void>;
  /** Where failed leases, and the first good one after them, are logged. */
  failures: FailureLog;
  /**
   * Subscribes `poke` to messages queued and committed by this daemon (`listenForQueuedMessages`,
   * outbox-bell.ts), so the loop looks for them now, not after its interval; answers how to
   * unsubscribe, which stopping does.
   */
  listen?: (poke: () => void) => () => void;
}

/**
 * Delivers an outbox's due messages, `slots` at a time, until stopped. A delivery that ends
 * makes room: the next lease does not wait for the slowest delivery of the last one. While more
 * is due than the last lease took (it came back full, messages were queued meanwhile, or it left
 * out a lane near its share), the loop leases again once there is room for a fifth of a lane's
 * share, so a burst is leased in a few dozen statements rather than one per delivery; otherwise
 * it sleeps `intervalMs`, and a poke (messages queued, told by `listen`) or stopping wakes it.
 * A lease that throws is told to `failures` (unless the loop is stopping) and the loop sleeps as
 * when nothing is due. Shared by the notification dispatcher and the subscriber mailer.
 */
export function startPollingLoop<Row extends { uid: string }>(options: PollingLoopOptions<Row>): PollingLoop {
  // The deliveries under way, by message.
  const underWay = new Map<string, Promise<void>>();
  const lanes = new Map<string, number>();
  const slotsPerLane = options.lanes?.slotsPerLane ?? options.slots;
  const laneOf = options.lanes?.laneOf ?? (() => '');
  const worthALease = Math.max(1, Math.ceil(slotsPerLane / 5));
  let stopped = false;
  let wake: (() => void) | undefined;
  // What is known to be due: more (the last lease came back full, or messages were queued since
  // it began), more in the lanes it left out, or nothing known.
  let moreDue = false;
  let pokes = 0;
  let leftOut: readonly string[] = [];

  /**
   * The lanes too close to their share for a lease of `worthALease` (left out of the next lease,
   * so that a lane that hangs near its share holds up nobody), and how many messages the next
   * lease may take: no lane may pass its share with it.
   */
  const room = () => {
    const leaveOut: string[] = [];
    let busiest = 0;
    for (const [lane, count] of lanes) {
      // A lane whose share is all the slots holds them all when it hangs: leaving it out helps nobody.
      if (slotsPerLane - count < worthALease && slotsPerLane < options.slots) leaveOut.push(lane);
      else busiest = Math.max(busiest, count);
    }
    return { leaveOut, limit: Math.min(options.slots - underWay.size, slotsPerLane - busiest) };
  };

  /** A delivery of `lane` ended: the loop, if it sleeps, wakes when there is now room for a lease worth making. */
  const ended = (lane: string) => {
    if (!wake) return;
    if (moreDue ? room().limit >= worthALease : leftOut.includes(lane) && slotsPerLane - (lanes.get(lane) ?? 0) >= worthALease) wake();
  };

  const start = (row: Row) => {
    // Leased again while this daemon still delivers it (its lease ran out first: the clock jumped
    // forward, or the lease is set shorter than the delivery's timeout): sent once all the same.
    if (underWay.has(row.uid)) return;
    const lane = laneOf(row);
    lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
    const delivery = options.deliver(row).finally(() => {
      underWay.delete(row.uid);
      const left = (lanes.get(lane) ?? 1) - 1;
      if (left > 0) lanes.set(lane, left);
      else lanes.delete(lane);
      ended(lane);
    });
    underWay.set(row.uid, delivery);
  };

  /** Sleeps `ms`, or (undefined) until woken by a delivery that ends or by stopping. */
  const sleep = (ms: number | undefined) =>
    new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
    });

  const loop = (async () => {
    while (!stopped) {
      const { leaveOut, limit } = room();
      if (limit < 1 || (moreDue && limit < worthALease)) {
        // No room, or in a burst too little for a lease: deliveries that end wake the loop (or the interval does).
        await sleep(moreDue ? undefined : options.intervalMs);
        continue;
      }
      const pokesBefore = pokes;
      try {
        const rows = await options.lease(limit, leaveOut, () => stopped);
        options.failures.succeeded();
        for (const row of rows) start(row);
        // Messages that committed while the lease ran may have been missed by it.
        moreDue = rows.length === limit || pokes !== pokesBefore;
        leftOut = leaveOut;
      } catch (error) {
        moreDue = false;
        leftOut = [];
        if (!stopped) options.failures.failed(error as Error);
      }
      if (stopped) break;
      // After a full lease the next comes at once while there is room for it. Otherwise new
      // messages are looked for after the interval, or when a lane left out makes room.
      if (!moreDue) await sleep(options.intervalMs);
      // Deliveries that end together make room for one lease.
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(underWay.values());
  })();

  const stopListening = options.listen?.(() => {
    pokes++;
    moreDue = true;
    wake?.();
  });
  return {
    async stop() {
      stopListening?.();
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
