import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { isSecretHeader } from '../shared/headers.js';
import { withDefaultPort } from '../shared/host-port.js';
import { flagValue, textValue } from '../shared/values.js';
import type { ProbeCheck } from './probe-check.js';
import { readTlsConfig, reportIpProtocol } from './probe-settings.js';

// The `grpc` prober (prober/grpc.go): grpc.health.v1.Health/Check for `service`, SERVING is up.

function readMetadata(raw: unknown, scope: ItemScope): Record<string, string> | undefined {
  if (!isRecord(raw)) return undefined;
  const metadata: Record<string, string> = {};
  for (const [rawKey, rawValue] of Object.entries(raw)) {
    const key = rawKey.toLowerCase();
    const value = textValue(Array.isArray(rawValue) ? rawValue[0] : rawValue);
    if (value === undefined || key.endsWith('-bin')) {
      scope.warn('UNSUPPORTED_SETTING', `the metadata ${JSON.stringify(rawKey)} is not text; left out`, `metadata.${rawKey}`);
      continue;
    }
    metadata[key] = isSecretHeader(key) ? scope.secretFor(key, `the credential in the ${key} metadata`, `metadata.${rawKey}`) : value;
  }
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/**
 * The address the prober dials (prober/grpc.go): `http://` or `https://` and any path or
 * `user@` dropped, and the port 80 without TLS or 443 with it when the target names none.
 */
function dialedAddress(target: string, useTls: boolean): string {
  const authority = target
    .replace(/^https?:\/\//, '')
    .split(/[/?#]/, 1)[0]!
    .replace(/^.*@/, '');
  return withDefaultPort(authority, useTls ? 443 : 80) ?? target;
}

/** The check a `grpc` module makes of a target. */
export function grpcProbe(raw: string, grpc: Record<string, unknown>, scope: ItemScope): ProbeCheck {
  reportIpProtocol(grpc, scope);
  const useTls = flagValue(grpc.tls) === true;
  const target = dialedAddress(raw, useTls);
  const { ignoreTlsErrors } = readTlsConfig(grpc.tls_config, scope, 'tls_config');
  return {
    type: 'grpc',
    target,
    config: {
      service: textValue(grpc.service) ?? '',
      useTls,
      ignoreTlsErrors: useTls ? ignoreTlsErrors : undefined,
      metadata: readMetadata(grpc.metadata, scope),
    },
  };
}
