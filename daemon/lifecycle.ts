/**
 * Whether the daemon is draining, and how many requests are under way, with the work a request
 * leaves to run after its response (the statistics after a large import): shutdown waits for
 * them, and the readiness probe reports draining so a load balancer stops sending traffic.
 */
export class Lifecycle {
  draining = false;
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  /** A request, or work one left behind, started. */
  enter(): void {
    this.inFlight += 1;
  }

  /** A request, or work one left behind, ended. */
  leave(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once nothing is under way. */
  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
