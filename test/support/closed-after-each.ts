import { afterEach } from 'vitest';

/**
 * `make`, with everything it makes closed after each test of the describe block this is called in:
 * worker pools and threads that a failing test would otherwise leave running.
 */
export function closedAfterEach<A extends unknown[], T extends { close(): Promise<unknown> }>(make: (...args: A) => T): (...args: A) => T {
  const opened: T[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((made) => made.close()));
  });
  return (...args) => {
    const made = make(...args);
    opened.push(made);
    return made;
  };
}
