import { isIPv6 } from '../../checks/hosts.js';
import { DNS_RCODES, DNS_RECORD_TYPES } from '../../checks/index.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { flagValue, textValue } from '../shared/values.js';
import type { ProbeCheck } from './probe-check.js';
import { regexpList, reportIpProtocol } from './probe-settings.js';

// The `dns` prober (prober/dns.go): the target is the DNS server; the module names the query.
// Its defaults: query type ANY, class IN, recursion desired, UDP, NOERROR the only valid rcode.

const VALIDATORS = ['fail_if_matches_regexp', 'fail_if_all_match_regexp', 'fail_if_not_matches_regexp', 'fail_if_none_matches_regexp'];

function reportValidators(raw: unknown, section: string, scope: ItemScope): void {
  if (!isRecord(raw)) return;
  for (const key of VALIDATORS) {
    if (regexpList(raw[key]).length > 0) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        `regular expressions on the ${section.replace(/^validate_|_rrs$/g, '')} records (${section}.${key}) have no equivalent; not tested`,
        `${section}.${key}`,
      );
    }
  }
}

/** The check a `dns` module makes, the target being the server asked; a skip reason when the module names no query. */
export function dnsProbe(target: string, dns: Record<string, unknown>, scope: ItemScope): ProbeCheck | string {
  const name = textValue(dns.query_name)?.trim();
  if (!name) return 'the dns module has no query_name; the exporter refuses such a module';
  reportIpProtocol(dns, scope);
  const rawType = textValue(dns.query_type)?.trim().toUpperCase() || 'ANY';
  let recordType = DNS_RECORD_TYPES.find((type) => type === rawType);
  if (!recordType) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the query type ${rawType}${dns.query_type ? '' : ' (the default)'} is not supported (${DNS_RECORD_TYPES.join(', ')}); A is queried instead`,
      'query_type',
    );
    recordType = 'A';
  }
  const rcodes = Array.isArray(dns.valid_rcodes) ? dns.valid_rcodes.flatMap((code) => textValue(code)?.trim().toUpperCase() ?? []) : [];
  const expectedRcode = rcodes.length > 0 ? DNS_RCODES.find((code) => code === rcodes[0]) : undefined;
  if (rcodes.length > 0 && !expectedRcode) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the response code ${rcodes[0]} is not one the check can expect (${DNS_RCODES.join(', ')}); NOERROR is expected`,
      'valid_rcodes',
    );
  }
  if (rcodes.length > 1) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the check expects one response code; ${rcodes.slice(1).join(', ')} ${rcodes.length > 2 ? 'are' : 'is'} no longer accepted`,
      'valid_rcodes',
    );
  }
  for (const section of ['validate_answer_rrs', 'validate_authority_rrs', 'validate_additional_rrs']) reportValidators(dns[section], section, scope);
  const transport = textValue(dns.transport_protocol)?.trim().toLowerCase();
  if (transport === 'tcp')
    scope.warn('UNSUPPORTED_SETTING', 'queries over TCP (transport_protocol: tcp) have no equivalent; the check asks over UDP', 'transport_protocol');
  if (flagValue(dns.dns_over_tls) === true) scope.warn('UNSUPPORTED_SETTING', 'DNS over TLS has no equivalent; the check asks in plain DNS', 'dns_over_tls');
  if (flagValue(dns.recursion_desired) === false)
    scope.warn('UNSUPPORTED_SETTING', 'non-recursive queries (recursion_desired: false) have no equivalent', 'recursion_desired');
  const queryClass = textValue(dns.query_class)?.trim().toUpperCase();
  if (queryClass && queryClass !== 'IN') scope.warn('UNSUPPORTED_SETTING', `the query class ${queryClass} has no equivalent; IN is asked`, 'query_class');
  // A bare IPv6 address is the whole host (prober/dns.go: SplitHostPort fails, port 53); the check writes it in brackets.
  const resolver = isIPv6(target) ? `[${target}]` : target;
  return { type: 'dns', target: name, config: { recordType, resolver, expectedRcode } };
}
