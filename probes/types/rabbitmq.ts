import { Agent, request } from 'undici';
import { passwordOf } from '../credentials.js';
import { networkFailure } from '../connection-errors.js';
import { defineProbe, ProbeFailure, type ProbeContext } from '../probe.js';
import { failureMessage } from '../failure-message.js';

/** The management API's node health check: 200 without alarms, 503 with the alarm as reason. */
const HEALTH_PATH = 'api/health/checks/alarms';

/**
 * RabbitMQ through its management API (HTTP, with undici, the project's HTTP client): asks the
 * target node, then each additional node in turn, whether it is healthy; up on the first that is.
 */
export const rabbitmqProbe = defineProbe({
  type: 'rabbitmq',
  async run(check, context) {
    const { config } = check;
    const agent = new Agent({
      connect: { lookup: context.egress.lookup, rejectUnauthorized: !config.ignoreTlsErrors, timeout: context.timeoutMs },
    });
    const authorization = config.username ? `Basic ${Buffer.from(`${config.username}:${passwordOf(config) ?? ''}`).toString('base64')}` : undefined;
    const problems: string[] = [];
    try {
      for (const node of [check.target, ...config.additionalNodes]) {
        const problem = await nodeProblem(node, agent, authorization, config.username, context);
        if (!problem) return { message: `${hostOf(node)} healthy` };
        problems.push(problems.length === 0 && config.additionalNodes.length === 0 ? problem : `${hostOf(node)}: ${problem}`);
      }
      throw new ProbeFailure(problems.join('; '));
    } finally {
      // Closes every socket, including one still waiting for an answer when the timeout struck.
      agent.destroy().catch(() => {});
    }
  },
});

function hostOf(node: string): string {
  return new URL(node).host;
}

/** Why a node is not healthy, or undefined when it is. */
async function nodeProblem(
  node: string,
  agent: Agent,
  authorization: string | undefined,
  username: string | undefined,
  context: ProbeContext,
): Promise<string | undefined> {
  const base = new URL(node);
  const url = new URL(HEALTH_PATH, base.href.endsWith('/') ? base : `${base.href}/`);
  try {
    // Node skips the agent's lookup for an IP literal: the policy judges every host here first.
    await context.egress.resolve(base.hostname);
    const response = await request(url, {
      dispatcher: agent,
      signal: context.signal,
      headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) },
      headersTimeout: context.timeoutMs,
      bodyTimeout: context.timeoutMs,
    });
    const body = await response.body.text();
    if (response.statusCode === 200) return undefined;
    if (response.statusCode === 401) {
      return username ? `authentication failed for user "${username}"` : 'the management API requires a user name and password';
    }
    if (response.statusCode === 503) return `unhealthy: ${alarmReason(body)}`;
    return `management API answered HTTP ${response.statusCode}`;
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    if (error instanceof ProbeFailure) return error.message;
    const port = Number(base.port || (base.protocol === 'https:' ? 443 : 80));
    return (networkFailure(error, base.hostname.replace(/^\[|\]$/g, ''), port) ?? new ProbeFailure(failureMessage(error))).message;
  }
}

/** What a 503 answer reports: its alarms (`{alarms: [{node, resource}], reason}`), kept short. */
function alarmReason(body: string): string {
  let answer: { alarms?: Array<{ node?: unknown; resource?: unknown }>; reason?: unknown };
  try {
    answer = JSON.parse(body);
  } catch {
    return 'the node reports an alarm';
  }
  const alarms = (answer.alarms ?? []).map(({ node, resource }) => `${String(resource)} alarm on ${String(node)}`);
  const text = alarms.length > 0 ? alarms.join(', ') : typeof answer.reason === 'string' ? answer.reason : 'the node reports an alarm';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
