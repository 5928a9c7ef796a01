import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { onAbort } from '../abort.js';
import { conditionValues, describeConditions, someAnswerMeets } from '../dns-answer-conditions.js';
import { defineProbe, ProbeFailure, type ProbeContext } from '../probe.js';
import { parseHostPort } from '../target.js';

/** The response code a resolver error stands for; undefined for failures that carry none. */
const RCODE_OF_ERROR: Record<string, string> = {
  ENODATA: 'NOERROR',
  ENOTFOUND: 'NXDOMAIN',
  ESERVFAIL: 'SERVFAIL',
  EREFUSED: 'REFUSED',
  EFORMERR: 'FORMERR',
  ENOTIMP: 'NOTIMP',
};

/** One answer as text, the way expected values are written (`10 mx.example.com`). */
function answerText(type: string, record: unknown): string {
  const r = record as Record<string, unknown>;
  switch (type) {
    case 'MX':
      return `${r.priority} ${r.exchange}`;
    case 'SRV':
      return `${r.priority} ${r.weight} ${r.port} ${r.name}`;
    case 'TXT':
      return (record as string[]).join('');
    case 'SOA':
      return `${r.nsname} ${r.hostmaster} ${r.serial} ${r.refresh} ${r.retry} ${r.expire} ${r.minttl}`;
    case 'CAA': {
      const tag = ['issue', 'issuewild', 'iodef', 'contactemail', 'contactphone'].find((name) => name in r) ?? 'issue';
      return `${r.critical} ${tag} "${r[tag]}"`;
    }
    default:
      return String(record);
  }
}

/** Values compare without case, quotes, trailing dots or repeated spaces. */
const normalise = (value: string) =>
  value
    .toLowerCase()
    .replace(/"/g, '')
    .replace(/\.(?=\s|$)/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** A resolver with the run's time budget, pointed at `server` when the check names one. */
async function resolverFor(server: string | undefined, context: ProbeContext): Promise<Resolver> {
  const resolver = new Resolver({ timeout: context.timeoutMs, tries: 1 });
  if (server !== undefined) {
    // The resolver is where the query goes: the egress policy applies to it.
    const { host, port } = parseHostPort(server, 53);
    const { address } = await context.egress.resolve(host);
    resolver.setServers([isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`]);
  } else if (context.egress.options.denyPrivate || (context.egress.options.allow?.length ?? 0) > 0) {
    // The system's resolver answers for the daemon's own network (internal zones, split horizon):
    // where the policy limits targets, it must allow that resolver too, or the check names one.
    for (const server of resolver.getServers()) {
      const address = server.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
      const why = context.egress.refusal(address);
      if (why) throw new ProbeFailure(`${why}, the system resolver: name a resolver in the check`);
    }
  }
  return resolver;
}

/**
 * The DNS probe: queries the record type (at the configured resolver, or the system's), compares
 * the response code with `expectedRcode`, and requires every expected value among the answers.
 * Node's resolver (c-ares) reports response codes as errors; they are mapped back to codes.
 */
export const dnsProbe = defineProbe({
  type: 'dns',
  async run(check, context) {
    const { config } = check;
    const resolver = await resolverFor(config.resolver, context);
    const forget = onAbort(context.signal, () => resolver.cancel());
    let records: unknown[] = [];
    let rcode = 'NOERROR';
    try {
      records = config.recordType === 'PTR' ? await resolver.reverse(check.target) : ((await resolver.resolve(check.target, config.recordType)) as unknown[]);
      if (config.recordType === 'SOA' && !Array.isArray(records)) records = [records];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const mapped = RCODE_OF_ERROR[code];
      if (!mapped) {
        if (code === 'ECANCELLED') throw context.signal.reason ?? error;
        throw new ProbeFailure(`query ${config.recordType} ${check.target} failed: ${code || (error as Error).message}`);
      }
      rcode = mapped;
    } finally {
      forget();
    }
    if (rcode !== config.expectedRcode) throw new ProbeFailure(`expected ${config.expectedRcode}, got ${rcode}`);
    const answers = records.map((record) => answerText(config.recordType, record));
    if (config.requireAnswers && records.length === 0) throw new ProbeFailure(`${rcode}, no ${config.recordType} answers`);
    const conditions = config.answerConditions;
    if (conditions !== undefined && !someAnswerMeets(conditionValues(config.recordType, records), conditions)) {
      const got = answers.length ? answers.join(', ') : 'no answers';
      throw new ProbeFailure(`no ${config.recordType} answer meets ${describeConditions(conditions)}; got ${got}`);
    }
    const present = new Set(answers.map(normalise));
    const missing = config.expectedValues.filter((value) => !present.has(normalise(value)));
    if (missing.length > 0) {
      const got = answers.length ? answers.join(', ') : 'no answers';
      throw new ProbeFailure(`expected ${missing.join(', ')} among the ${config.recordType} answers, got ${got}`);
    }
    return { message: answers.length ? `${rcode}: ${answers.join(', ')}` : `${rcode}, no answers` };
  },
});
