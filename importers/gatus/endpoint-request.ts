import { HTTP_METHODS, type CheckTypeName } from '../../checks/index.js';
import { hasHeader, importHeaders, setHeader } from '../shared/headers.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue, textValue } from '../shared/values.js';
import { keepPlaceholders } from './keep-placeholders.js';
import { importBoundedText } from '../shared/bounded-text.js';

/** What the endpoint sends: the request parts that have an equivalent for its check type. */
export interface EndpointRequest {
  method?: (typeof HTTP_METHODS)[number];
  headers?: Record<string, string>;
  /** The HTTP body, the TCP/UDP payload or the WebSocket message. */
  body?: string;
  /** The SSH command, from a body of the form {"command": "..."}. */
  command?: string;
}

const MAX_BODY = 65_536;
/** The catalog's bound of an SSH command. */
const MAX_SSH_COMMAND = 4096;
const HEADER_TYPES: ReadonlySet<CheckTypeName> = new Set(['http', 'websocket']);
const BODY_TYPES: ReadonlySet<CheckTypeName> = new Set(['http', 'websocket', 'tcp', 'udp']);

// Gatus resolves these in the body before sending it. The endpoint's own name, group and URL
// are known here and are filled in; the others change on every request.
function resolveBodyPlaceholders(body: string, endpoint: Record<string, unknown>, scope: ItemScope): string {
  const resolved = body
    .replaceAll('[ENDPOINT_NAME]', textValue(endpoint.name) ?? '')
    .replaceAll('[ENDPOINT_GROUP]', textValue(endpoint.group) ?? '')
    .replaceAll('[ENDPOINT_URL]', textValue(endpoint.url) ?? '');
  const dynamic = [...new Set(resolved.match(/\[(?:LOCAL_ADDRESS|RANDOM_STRING_\d+|CONTEXT)\]/g) ?? [])];
  if (dynamic.length > 0) {
    scope.warn('UNSUPPORTED_SETTING', `the body placeholders ${dynamic.join(', ')} are not resolved; they are sent literally`, 'body');
  }
  return resolved;
}

function readMethod(raw: unknown, type: CheckTypeName, scope: ItemScope): EndpointRequest['method'] {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const method = textValue(raw)?.trim().toUpperCase();
  if (type !== 'http') {
    if (method !== 'GET') scope.warn('UNSUPPORTED_SETTING', `a ${type} check sends no HTTP method; method ignored`, 'method');
    return undefined;
  }
  const known = HTTP_METHODS.find((candidate) => candidate === method);
  if (!known) {
    scope.warn('UNSUPPORTED_SETTING', `the method ${describeValue(raw)} is not supported (${HTTP_METHODS.join(', ')}); GET is used`, 'method');
  }
  return known;
}

function readHeaders(raw: unknown, type: CheckTypeName, scope: ItemScope): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    scope.warn('UNSUPPORTED_SETTING', '`headers` is not a mapping and was ignored', 'headers');
    return undefined;
  }
  if (Object.keys(raw).length === 0) return undefined;
  if (!HEADER_TYPES.has(type)) {
    scope.warn('UNSUPPORTED_SETTING', `a ${type} check sends no headers; headers ignored`, 'headers');
    return undefined;
  }
  const headers = importHeaders(Object.entries(raw), scope, 'headers');
  for (const [name, value] of Object.entries(headers)) keepPlaceholders(scope, value, `headers.${name}`);
  return headers;
}

function sshCommand(body: string, scope: ItemScope): string | undefined {
  let command: unknown;
  try {
    const parsed: unknown = JSON.parse(body);
    command = isRecord(parsed) ? parsed.command : undefined;
  } catch {
    command = undefined;
  }
  if (typeof command !== 'string' || command.trim() === '') {
    scope.warn('UNSUPPORTED_SETTING', 'the SSH body is not {"command": "..."}; no command is run', 'body');
    return undefined;
  }
  keepPlaceholders(scope, command, 'body');
  return importBoundedText(command, scope, 'body', 'SSH command', MAX_SSH_COMMAND);
}

/** Reads `method`, `headers`, `body` and `graphql` for a check of `type`, warning about what does not apply. */
export function readRequest(endpoint: Record<string, unknown>, type: CheckTypeName, scope: ItemScope): EndpointRequest {
  const request: EndpointRequest = {
    method: readMethod(endpoint.method, type, scope),
    headers: readHeaders(endpoint.headers, type, scope),
  };
  const rawBody = endpoint.body;
  let body = rawBody === undefined || rawBody === null ? '' : textValue(rawBody);
  if (body === undefined) {
    scope.warn('UNSUPPORTED_SETTING', `the body is ${describeValue(rawBody)}, not text; ignored`, 'body');
    body = '';
  }
  if (body === '') return request;
  if (type === 'ssh') return { ...request, command: sshCommand(body, scope) };
  if (!BODY_TYPES.has(type)) {
    scope.warn('UNSUPPORTED_SETTING', `a ${type} check sends no body; body ignored`, 'body');
    return request;
  }
  body = resolveBodyPlaceholders(body, endpoint, scope);
  if (type === 'http' && flagValue(endpoint.graphql) === true) {
    body = JSON.stringify({ query: body });
    if (!hasHeader(request.headers ?? {}, 'content-type')) {
      request.headers = { ...request.headers };
      setHeader(request.headers, 'Content-Type', 'application/json', scope, 'headers');
    }
  }
  if (body.length > MAX_BODY) {
    scope.warn('UNSUPPORTED_SETTING', `the body is longer than ${MAX_BODY} characters; it was left out`, 'body');
    return request;
  }
  keepPlaceholders(scope, body, 'body');
  return { ...request, body };
}
