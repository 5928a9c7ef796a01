/**
 * Matches an address against the organizations' registration patterns on a worker thread.
 * Patterns are written by organization admins, so one with catastrophic backtracking must stall
 * neither the daemon's event loop nor a sign-up for long: each pattern gets PER_PATTERN_MS on the
 * worker, and one call gets TOTAL_MS in all, after which the worker is terminated (which stops
 * even a regular expression in the middle of its work) and a fresh one serves the next call.
 */
import { Worker } from 'node:worker_threads';

/** What became of one pattern: `skipped` when the call's total time ran out before it. */
export type PatternOutcome = 'match' | 'no-match' | 'timeout' | 'invalid' | 'skipped';

/** The longest one pattern may take to match one address. */
export const PER_PATTERN_MS = 50;
/** The longest matching one address against every pattern may take. */
export const TOTAL_MS = 500;

// Evaluated as a CommonJS script, so it runs alike from dist/ and from the TypeScript sources the
// test runner loads. The vm timeout bounds each pattern; the main thread bounds the whole call.
const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const context = vm.createContext(Object.create(null));
const test = new vm.Script('new RegExp(pattern, "i").test(email)');
parentPort.on('message', ({ id, email, patterns, perPatternMs }) => {
  for (let index = 0; index < patterns.length; index++) {
    context.pattern = patterns[index];
    context.email = email;
    let outcome;
    try {
      outcome = test.runInContext(context, { timeout: perPatternMs }) === true ? 'match' : 'no-match';
    } catch (error) {
      outcome = error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? 'timeout' : 'invalid';
    }
    parentPort.postMessage({ id, index, outcome });
  }
  parentPort.postMessage({ id, done: true });
});
`;

type Message = { id: number; index: number; outcome: PatternOutcome } | { id: number; done: true };
type Job = { id: number; email: string; patterns: string[]; resolve: (outcomes: PatternOutcome[]) => void };
type Slot = { worker: Worker; online: boolean };

// How each pattern fared lately, to order the next call: patterns that answered in time first,
// patterns not seen yet next (shuffled, so that every one of them is reached within a few
// calls), patterns that ran out of time last. So hostile patterns, once met, can no longer use
// up a call's time before the ordinary ones are tried. Bounded: cleared when full, which only
// costs the ordering.
const HISTORY_SIZE = 1000;
const history = new Map<string, 'fast' | 'slow'>();

let slot: Slot | undefined;
let running: Job | undefined;
const queue: Job[] = [];
let nextId = 1;

/**
 * Each pattern's outcome for `email`, in the order given. Calls run one at a time on one
 * worker; each gets at most TOTAL_MS once the worker is up.
 */
export function matchPatterns(email: string, patterns: string[]): Promise<PatternOutcome[]> {
  if (patterns.length === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    queue.push({ id: nextId++, email, patterns, resolve });
    if (!running) runNext();
  });
}

function runNext(): void {
  const job = queue.shift();
  running = job;
  if (!job) {
    // Idle: never keep the process alive for it.
    slot?.worker.unref();
    return;
  }
  // `order[i]` is the caller's index of the i-th pattern sent.
  const order = triedOrder(job.patterns);
  const outcomes: PatternOutcome[] = job.patterns.map(() => 'skipped');
  const current = slot ?? spawn();
  const { worker } = current;
  worker.ref();
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    clearTimeout(timer);
    worker.off('online', startClock);
    worker.off('message', onMessage);
    worker.off('error', onFailure);
    worker.off('exit', onFailure);
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome === 'timeout') remember(job.patterns[index], 'slow');
      else if (outcome === 'match' || outcome === 'no-match') remember(job.patterns[index], 'fast');
    }
    job.resolve(outcomes);
    runNext();
  };
  const onMessage = (message: Message) => {
    if (message.id !== job.id) return;
    if ('done' in message) finish();
    else outcomes[order[message.index]] = message.outcome;
  };
  const onFailure = () => {
    if (slot === current) slot = undefined;
    finish();
  };
  // The clock starts once the worker runs: starting a thread is not the patterns' time.
  function startClock() {
    timer = setTimeout(() => {
      // Out of time: whatever is still running is stopped; a fresh worker serves the next call.
      if (slot === current) slot = undefined;
      void worker.terminate();
      finish();
    }, TOTAL_MS);
  }
  worker.on('message', onMessage);
  worker.once('error', onFailure);
  worker.once('exit', onFailure);
  if (current.online) startClock();
  else worker.once('online', startClock);
  worker.postMessage({ id: job.id, email: job.email, patterns: order.map((index) => job.patterns[index]), perPatternMs: PER_PATTERN_MS });
}

const TRY_RANK = { fast: 0, unseen: 1, slow: 2 } as const;

/** The indexes of `patterns` in the order to try them (see `history`). */
function triedOrder(patterns: string[]): number[] {
  const order = patterns.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const rankOf = (index: number) => TRY_RANK[history.get(patterns[index]) ?? 'unseen'];
  return order.sort((a, b) => rankOf(a) - rankOf(b));
}

function remember(pattern: string, speed: 'fast' | 'slow'): void {
  if (history.size >= HISTORY_SIZE && !history.has(pattern)) history.clear();
  history.set(pattern, speed);
}

function spawn(): Slot {
  // A small heap: the worker holds one address and a few hundred short patterns at most.
  const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
  const spawned: Slot = { worker, online: false };
  worker.once('online', () => {
    spawned.online = true;
  });
  // A worker that fails between calls (out of memory) is replaced at the next one.
  worker.on('error', () => {
    if (slot === spawned) slot = undefined;
  });
  slot = spawned;
  return spawned;
}
