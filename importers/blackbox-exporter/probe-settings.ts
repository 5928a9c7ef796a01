import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue, textValue } from '../shared/values.js';

// Settings several probers share: the TLS client settings (tls_config), the address family
// and the source address.

/** Reads `tls_config`: `insecure_skip_verify` carries over; client keys and the rest are reported. */
export function readTlsConfig(raw: unknown, scope: ItemScope, field: string): { ignoreTlsErrors?: boolean } {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) {
    scope.warn('UNSUPPORTED_SETTING', `${field} is ${describeValue(raw)}, not a mapping; ignored`, field);
    return {};
  }
  const out: { ignoreTlsErrors?: boolean } = {};
  const insecure = flagValue(raw.insecure_skip_verify);
  if (insecure !== undefined) out.ignoreTlsErrors = insecure;
  if (raw.cert_file || raw.key_file || raw.cert || raw.key) {
    scope.warn('SECRET_DROPPED', `the client certificate and key (${field}.cert_file, key_file) were not imported: keys never carry over`, field);
  }
  for (const key of ['ca_file', 'ca', 'server_name', 'min_version', 'max_version']) {
    if (raw[key] !== undefined && raw[key] !== null && raw[key] !== '') {
      scope.warn(
        'UNSUPPORTED_SETTING',
        `${field}.${key} has no equivalent; the check uses the system's trust store, the target's name and any TLS version`,
        `${field}.${key}`,
      );
    }
  }
  return out;
}

/**
 * Reports the address-family settings: the exporter prefers IPv6 and falls back to IPv4
 * (prober/utils.go); svc connects to the first address the resolver gives. Only a family
 * forced without fallback (`ip_protocol_fallback: false`) changes a verdict, and svc cannot
 * force one.
 */
export function reportIpProtocol(raw: Record<string, unknown>, scope: ItemScope): void {
  const protocol = textValue(raw.preferred_ip_protocol)?.trim() || 'ip6';
  if (flagValue(raw.ip_protocol_fallback) === false) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the probe only uses ${protocol === 'ip4' ? 'IPv4' : 'IPv6'} (ip_protocol_fallback: false); the check connects to whichever address the resolver gives first`,
      'ip_protocol_fallback',
    );
  }
  const source = textValue(raw.source_ip_address)?.trim();
  if (source)
    scope.warn('UNSUPPORTED_SETTING', `probing from the source address ${source} is not supported; the check uses the default route`, 'source_ip_address');
}

/** The exporter's settings block of a prober (`http:`, `tcp:`, ...), empty when absent. */
export function proberBlock(module: Record<string, unknown>, prober: string, scope: ItemScope): Record<string, unknown> {
  const block = module[prober];
  if (block === undefined || block === null) return {};
  if (isRecord(block)) return block;
  scope.warn('UNSUPPORTED_SETTING', `the module's ${prober} settings are ${describeValue(block)}, not a mapping; the defaults are used`, prober);
  return {};
}

/** A list of regular expressions (`fail_if_body_matches_regexp` and the like); [] when absent. */
export function regexpList(raw: unknown): string[] {
  if (!Array.isArray(raw)) return typeof raw === 'string' ? [raw] : [];
  return raw.flatMap((value) => textValue(value) ?? []);
}
