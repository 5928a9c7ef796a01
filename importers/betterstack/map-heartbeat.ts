import type { CheckCandidate, ItemScope } from '../converter.js';
import { dropAlerting, dropMaintenance } from './alerting.js';
import { flag, isSet, num, text, type Attributes } from './attributes.js';

const PERIOD = { min: 10, max: 2_678_400 } as const;
const GRACE = { min: 0, max: 604_800 } as const;
// A heartbeat's deadline is evaluated every minute, or every period when that is shorter.
const EVALUATION_SECONDS = 60;

function within(value: number, scope: ItemScope, key: string, bounds: { readonly min: number; readonly max: number }): number {
  const fitted = Math.min(bounds.max, Math.max(bounds.min, Math.round(value)));
  if (fitted !== value) {
    scope.warn('VALUE_ADJUSTED', `the ${key} of ${value} s was changed to ${fitted} s (allowed: ${bounds.min}-${bounds.max} s)`, key);
  }
  return fitted;
}

/** The item name of a heartbeat in warnings: its name, else its id. */
export function heartbeatItem(attributes: Attributes | undefined, id: string | undefined, index: number): string {
  const name = attributes && text(attributes, 'name');
  return name?.trim() || `heartbeat ${id ?? `#${index + 1}`}`;
}

/**
 * Converts one heartbeat to a heartbeat check: `period` and `grace` (seconds) carry over, and
 * the check is down as soon as the deadline passes; the heartbeat URL holds its secret token,
 * so the job must be pointed at the new check's URL. Undefined when it has no period.
 */
export function heartbeatCandidate(attributes: Attributes, scope: ItemScope): CheckCandidate | undefined {
  const period = num(attributes, 'period');
  if (period === undefined) return undefined;
  const periodSeconds = within(period, scope, 'period', PERIOD);
  const graceSeconds = within(num(attributes, 'grace') ?? 0, scope, 'grace', GRACE);
  if (isSet(attributes, 'url')) {
    scope.warn('SECRET_DROPPED', "the heartbeat URL holds a secret token and does not carry over: point the job at the new check's URL", 'url');
  }
  dropMaintenance(attributes, scope);
  dropAlerting(attributes, scope);
  const paused = flag(attributes, 'paused') ?? text(attributes, 'paused_at') !== undefined;
  return {
    name: text(attributes, 'name')?.trim() ?? '',
    type: 'heartbeat',
    enabled: !paused,
    intervalSeconds: Math.min(EVALUATION_SECONDS, periodSeconds),
    config: { periodSeconds, graceSeconds },
    thresholds: { failuresBeforeDown: 1 },
  };
}
