import { hostPortProblem, isHost, isHostName, isIPv4, isIPv6, urlProblem } from './hosts.js';

/** The shapes a check's `target` can take. */
export type TargetKind = 'url' | 'host-port' | 'host' | 'domain' | 'dns-name' | 'container' | 'none';

/** What a check type's `target` means, as published in the catalog listing. */
export interface TargetInfo {
  readonly kind: TargetKind;
  /** A sentence for people: what the target is for this type. */
  readonly description: string;
  /** Accepted URL schemes, for `url` targets. */
  readonly schemes?: readonly string[];
  /** The port used when a `host-port` target leaves it out; absent when the port is required. */
  readonly defaultPort?: number;
  readonly example: string;
}

/** A target declaration: its published description plus the check applied to a value. */
export interface TargetRule extends TargetInfo {
  /** A problem with `target`, or undefined when it is acceptable for this type. */
  problem(target: string): string | undefined;
}

/** The published part of a rule, without its function. */
export function targetInfo(rule: TargetRule): TargetInfo {
  const { problem: _problem, ...info } = rule;
  return info;
}

function withoutSpaces(check: (target: string) => string | undefined) {
  return (target: string): string | undefined => {
    if (target === '') return 'must not be empty';
    if (/\s/.test(target)) return 'must not contain spaces';
    return check(target);
  };
}

/** An absolute URL with one of the given schemes, e.g. `https://example.com/health`. */
export function urlTarget(schemes: readonly string[], description: string, example: string): TargetRule {
  return {
    kind: 'url',
    description,
    schemes,
    example,
    problem: withoutSpaces((target) => urlProblem(target, schemes)),
  };
}

/** `host:port`, or `host` alone when `defaultPort` is given. IPv6 addresses go in brackets. */
export function hostPortTarget(description: string, example: string, defaultPort?: number): TargetRule {
  return {
    kind: 'host-port',
    description,
    ...(defaultPort === undefined ? {} : { defaultPort }),
    example,
    problem: withoutSpaces((target) => hostPortProblem(target, defaultPort === undefined)),
  };
}

/** A host name or IP address without a port (brackets around IPv6 are tolerated). */
export function hostTarget(description: string, example: string): TargetRule {
  return {
    kind: 'host',
    description,
    example,
    problem: withoutSpaces((target) => {
      const host = target.startsWith('[') && target.endsWith(']') ? target.slice(1, -1) : target;
      if (isHost(host)) return undefined;
      if (target.includes('://')) return 'expected a host name or IP address, not a URL';
      return `"${target}" is not a valid host name or IP address`;
    }),
  };
}

/** A registered domain name such as `example.com`: at least two labels, not an IP address. */
export function domainTarget(description: string, example: string): TargetRule {
  return {
    kind: 'domain',
    description,
    example,
    problem: withoutSpaces((target) => {
      const labels = target.replace(/\.$/, '').split('.');
      const tld = labels[labels.length - 1] ?? '';
      if (isHostName(target) && labels.length >= 2 && /^(?:[a-z]{2,63}|xn--[a-z0-9-]+)$/i.test(tld)) {
        return undefined;
      }
      return `"${target}" is not a domain name such as example.com`;
    }),
  };
}

/** A name to resolve: a host name (underscores allowed, for SRV) or an IP address (for PTR). */
export function dnsNameTarget(description: string, example: string): TargetRule {
  return {
    kind: 'dns-name',
    description,
    example,
    problem: withoutSpaces((target) => (isHostName(target) || isIPv4(target) || isIPv6(target) ? undefined : `"${target}" is not a DNS name`)),
  };
}

/** A Docker container name or id. */
export function containerTarget(description: string, example: string): TargetRule {
  return {
    kind: 'container',
    description,
    example,
    problem: withoutSpaces((target) =>
      /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$/.test(target) ? undefined : `"${target}" is not a container name or id (letters, digits, "_", "." and "-")`,
    ),
  };
}

/**
 * No external target: the monitored job calls the service. The field may be left out or
 * empty and is normalised to the empty string.
 */
export function noTarget(description: string): TargetRule {
  return {
    kind: 'none',
    description,
    example: '',
    problem: (target) => (target === '' ? undefined : 'this check type has no target (the monitored job calls in); leave it out'),
  };
}
