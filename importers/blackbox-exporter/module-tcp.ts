import { regexpLiteral } from '../shared/go-regexp.js';
import { importKeywordText } from '../shared/http-request.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue } from '../shared/values.js';
import type { ProbeCheck } from './probe-check.js';
import { readTlsConfig, reportIpProtocol } from './probe-settings.js';
import { importBoundedText } from '../shared/bounded-text.js';

// The `tcp` prober (prober/tcp.go, prober/query_response.go): connect, optionally over TLS,
// then walk `query_response`: each step waits for a line matching `expect`, then writes
// `send` followed by a line break. svc's check sends its text once connected and looks for
// one keyword in the reply, so a conversation maps when its lines are sent before the first
// expectation; the rest is reported.

interface Conversation {
  send?: string;
  keyword?: Record<string, unknown>;
}

function readConversation(raw: unknown, scope: ItemScope): Conversation {
  if (raw === undefined || raw === null) return {};
  if (!Array.isArray(raw)) {
    scope.warn('UNSUPPORTED_SETTING', `query_response is ${describeValue(raw)}, not a list; ignored`, 'query_response');
    return {};
  }
  const sends: string[] = [];
  let keyword: Record<string, unknown> | undefined;
  let expected = false;
  raw.forEach((step, index) => {
    const field = `query_response[${index}]`;
    if (!isRecord(step)) return;
    if (typeof step.expect === 'string' && step.expect !== '') {
      const literal = regexpLiteral(step.expect);
      if (expected) {
        scope.warn(
          'UNSUPPORTED_SETTING',
          `the check looks for one reply only; the expectation ${JSON.stringify(step.expect)} is not tested`,
          `${field}.expect`,
        );
      } else if (!literal) {
        scope.warn('UNSUPPORTED_SETTING', `the expectation ${JSON.stringify(step.expect)} is not plain text; the reply is not tested`, `${field}.expect`);
      } else if (importKeywordText(literal.text, scope, `${field}.expect`) !== undefined) {
        const loosened = [literal.anchored && 'it is anchored to a line', literal.dotted && '"." matches any character'].filter(Boolean);
        if (loosened.length > 0) {
          scope.warn(
            'VALUE_ADJUSTED',
            `the expectation ${JSON.stringify(step.expect)} is read as plain text (${loosened.join(', and ')}); the check looks for ${JSON.stringify(literal.text)} anywhere in the reply`,
            `${field}.expect`,
          );
        }
        keyword = { value: literal.text };
      }
      expected = true;
    }
    if (step.expect_bytes !== undefined && step.expect_bytes !== '') {
      scope.warn('UNSUPPORTED_SETTING', 'expecting exact bytes (expect_bytes) has no equivalent; not tested', `${field}.expect_bytes`);
    }
    if (step.send !== undefined && step.send !== '') {
      if (typeof step.send !== 'string') scope.warn('UNSUPPORTED_SETTING', 'binary data to send has no equivalent; not sent', `${field}.send`);
      else if (expected)
        scope.warn('UNSUPPORTED_SETTING', `${JSON.stringify(step.send)} is sent after a reply in the exporter; the check does not send it`, `${field}.send`);
      else sends.push(`${step.send}\n`);
    }
    if (flagValue(step.starttls) === true)
      scope.warn('UNSUPPORTED_SETTING', 'upgrading the connection with STARTTLS mid-conversation has no equivalent', `${field}.starttls`);
  });
  const send = importBoundedText(sends.length > 0 ? sends.join('') : undefined, scope, 'query_response', 'text the conversation sends');
  return { send, keyword };
}

/** The check a `tcp` module makes of `host:port`: a TCP check, or a TLS check for `tls: true` without a conversation. */
export function tcpProbe(target: string, tcp: Record<string, unknown>, scope: ItemScope): ProbeCheck {
  reportIpProtocol(tcp, scope);
  const tls = flagValue(tcp.tls) === true;
  const hasConversation = Array.isArray(tcp.query_response) && tcp.query_response.length > 0;
  if (tls && !hasConversation) {
    // A TLS handshake that verifies the certificate: the certificate check with the smallest
    // expiry threshold fails on what the handshake fails on.
    if (readTlsConfig(tcp.tls_config, scope, 'tls_config').ignoreTlsErrors) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        'the certificate check always verifies the certificate; insecure_skip_verify was ignored',
        'tls_config.insecure_skip_verify',
      );
    }
    return { type: 'tls', target, config: { expiryThresholdDays: 1 } };
  }
  if (tls) scope.warn('UNSUPPORTED_SETTING', 'a TCP conversation over TLS has no equivalent; the check talks in plain text', 'tls');
  const conversation = readConversation(tcp.query_response, scope);
  return { type: 'tcp', target, config: { send: conversation.send, keyword: conversation.keyword } };
}
