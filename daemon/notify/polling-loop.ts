import type { FailureLog } from '../failure-log.js';

/** A running outbox loop of one daemon. */
export interface PollingLoop {
  /** Stops leasing and waits for the deliveries under way. */
  stop(): Promise<void>;
}

/** What the loop asks of its outbox. */
export interface PollingLoopOptions<Row> {
  /** Deliveries under way at once. */
  slots: number;
  /**
   * Deliveries under way at once to one lane (a channel): a receiver that hangs until its
   * timeout holds this many slots at most, and the others keep the rest.
   */
  slotsPerLane: number;
  /** How long the loop sleeps when nothing more is due. */
  intervalMs: number;
  /** Leases up to `limit` due messages, none of the lanes in `fullLanes`. */
  lease: (limit: number, fullLanes: readonly string[], isStopping: () => boolean) => Promise<Row[]>;
  /** The lane of a message. */
  laneOf: (row: Row) => string;
  /** Delivers one message and records how it went; never rejects. */
  deliver: (row: Row) => Promise<void>;
  /** Where failed leases, and the first good one after them, are logged. */
  failures: FailureLog;
}

/**
 * Delivers an outbox's due messages, `slots` at a time, until stopped. A delivery that ends
 * makes room at once: the next lease does not wait for the slowest delivery of the last one.
 * The loop leases again as soon as a delivery ends while its last lease came back full (a burst)
 * or left out a full lane; otherwise it sleeps `intervalMs`, and stopping wakes it. A lease that
 * throws is told to `failures` (unless the loop is stopping) and the loop sleeps as when nothing
 * is due. Shared by the notification dispatcher and the subscriber mailer.
 */
export function startPollingLoop<Row>(options: PollingLoopOptions<Row>): PollingLoop {
  const underWay = new Set<Promise<void>>();
  const lanes = new Map<string, number>();
  let stopped = false;
  let wake: (() => void) | undefined;
  // Whether a delivery that ends should wake the loop: more is due than the last lease took.
  let wakeOnRoom = false;

  const start = (row: Row) => {
    const lane = options.laneOf(row);
    lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
    const delivery = options.deliver(row).finally(() => {
      underWay.delete(delivery);
      const left = (lanes.get(lane) ?? 1) - 1;
      if (left > 0) lanes.set(lane, left);
      else lanes.delete(lane);
      if (wakeOnRoom) wake?.();
    });
    underWay.add(delivery);
  };

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
      const free = options.slots - underWay.size;
      if (free <= 0) {
        wakeOnRoom = true;
        await sleep(undefined);
      } else {
        // Lanes at their share are left out; no other lane may pass it with this lease.
        const fullLanes: string[] = [];
        let busiest = 0;
        for (const [lane, count] of lanes) {
          if (count >= options.slotsPerLane) fullLanes.push(lane);
          else busiest = Math.max(busiest, count);
        }
        const limit = Math.min(free, options.slotsPerLane - busiest);
        let leasedFull = false;
        try {
          const rows = await options.lease(limit, fullLanes, () => stopped);
          options.failures.succeeded();
          for (const row of rows) start(row);
          leasedFull = rows.length === limit;
          wakeOnRoom = leasedFull || fullLanes.length > 0;
        } catch (error) {
          wakeOnRoom = false;
          if (!stopped) options.failures.failed(error as Error);
        }
        if (stopped) break;
        // After a full lease the next one comes at once while a slot is free, else once one is.
        // Otherwise new messages are looked for after the interval, or when a full lane's delivery ends.
        if (!leasedFull) await sleep(options.intervalMs);
        else if (underWay.size >= options.slots) await sleep(undefined);
      }
      // Deliveries that end together are made room for by one lease.
      if (!stopped) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(underWay);
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
