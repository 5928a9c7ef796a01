import type { ItemScope } from '../shared/item-scope.js';
import { flagValue, integerValue } from '../shared/values.js';
import type { ProbeCheck } from './probe-check.js';
import { reportIpProtocol } from './probe-settings.js';

// The `icmp` prober (prober/icmp.go): one echo request, `payload_size` bytes of payload.

/** The check an `icmp` module makes of a host. */
export function icmpProbe(target: string, icmp: Record<string, unknown>, scope: ItemScope): ProbeCheck {
  reportIpProtocol(icmp, scope);
  const size = integerValue(icmp.payload_size);
  let packetSize: number | undefined;
  if (size !== undefined && size > 0) {
    packetSize = Math.min(size, 65_500);
    if (packetSize !== size) scope.warn('VALUE_ADJUSTED', `the payload size of ${size} bytes was changed to 65500 bytes`, 'payload_size');
  }
  if (flagValue(icmp.dont_fragment) === true) {
    scope.warn('UNSUPPORTED_SETTING', 'setting the do-not-fragment bit (dont_fragment) has no equivalent', 'dont_fragment');
  }
  const ttl = integerValue(icmp.ttl);
  if (ttl !== undefined && ttl !== 64) scope.warn('UNSUPPORTED_SETTING', `a hop limit of ${ttl} (ttl) has no equivalent; the system's is used`, 'ttl');
  return { type: 'icmp', target, config: { count: 1, packetSize } };
}
