import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import type { ImportWarning } from '../../importers/converter.js';
import { convertSelfhostedMonitorDbAsync } from '../../importers/uptime-kuma/index.js';
import { printTable } from '../table.js';
import { MQTT_RETAINED, parityCases, withUpsideDown, type ParityCase } from './cases.js';
import { KUMA_STATUS, startKuma, type Beat } from './kuma.js';
import { svcVerdict, type PushTimes, type Verdict } from './svc-verdicts.js';
import { startTargets } from './targets.js';

// `npm run parity -- kuma`: the same monitors in Uptime Kuma and, imported from its database,
// in svc, against the same local targets; every verdict compared.

/** How a monitor's verdicts compare. A difference is warned when its item carries one of these warnings. */
export type Outcome = 'agree' | 'warned' | 'silent' | 'n/a';
const WARNING_CODES_THAT_EXPLAIN = new Set(['UNSUPPORTED_SETTING', 'UNSUPPORTED_TYPE', 'VALUE_ADJUSTED', 'SECRET_DROPPED', 'INVALID_ITEM']);

/**
 * Whether a warning tells of a difference. A dropped secret the run sets as its warning says
 * ("set secret NAME") is no difference; one it cannot set (the push URL) is.
 */
function explains(warning: ImportWarning): boolean {
  if (warning.code === 'SECRET_DROPPED') return !warning.message.includes('set secret');
  return WARNING_CODES_THAT_EXPLAIN.has(warning.code);
}

export interface Row {
  name: string;
  type: string;
  kuma: Verdict;
  svc: Verdict | 'skipped';
  outcome: Outcome;
  warnings: string[];
  kumaMessage: string;
  svcMessage: string;
}

interface Options {
  kumaDir: string;
  /** Seconds to wait for Kuma's beats at most. */
  waitSeconds: number;
  /** Only cases whose name contains one of these texts (comma-separated). */
  only?: string;
  /** Where the rows go as JSON, besides the table. */
  jsonOut?: string;
  keep: boolean;
}

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

function options(): Options {
  const kumaDir = flag('kuma-dir') ?? process.env.KUMA_DIR;
  if (!kumaDir) {
    process.stderr.write(
      'parity kuma: set KUMA_DIR (or --kuma-dir=) to a prepared Uptime Kuma tree (docs/import.md, "Differential run against Uptime Kuma")\n',
    );
    process.exit(2);
  }
  return {
    kumaDir,
    waitSeconds: Number(flag('wait') ?? 80),
    only: flag('only'),
    jsonOut: flag('json'),
    keep: process.argv.includes('--keep'),
  };
}

const log = (line: string) => process.stderr.write(`parity: ${line}\n`);
const INTERVAL = 20;

async function publishRetained(): Promise<void> {
  const client = await mqtt.connectAsync('mqtt://127.0.0.1:1883', { connectTimeout: 5000, reconnectPeriod: 0 });
  for (const [topic, message] of Object.entries(MQTT_RETAINED)) await client.publishAsync(topic, message, { retain: true, qos: 1 });
  // Nothing retained on the silent topic, whatever an earlier run left.
  await client.publishAsync('parity/silent', '', { retain: true, qos: 1 });
  await client.endAsync();
}

function kumaVerdict(item: ParityCase, beats: Beat[] | undefined): { verdict: Verdict; message: string } {
  if (item.monitor.active === false) return { verdict: 'paused', message: 'paused' };
  const last = beats?.at(-1);
  if (!last) return { verdict: 'none', message: 'no heartbeat' };
  return { verdict: (KUMA_STATUS[last.status] ?? 'none') as Verdict, message: last.msg ?? '' };
}

/** Kuma's pending is a failed run it retries: a run here that failed is the same verdict. */
function same(kuma: Verdict, svc: Verdict): boolean {
  return kuma === svc || (kuma === 'pending' && svc === 'down');
}

async function mapLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]);
    }
  });
  await Promise.all(workers);
  return results;
}

export async function run(): Promise<Record<string, unknown>> {
  const opts = options();
  const root = mkdtempSync(join(tmpdir(), 'svc-parity-'));
  const targets = await startTargets(root);
  let kuma: Awaited<ReturnType<typeof startKuma>> | undefined;
  try {
    await publishRetained();
    const wanted = opts.only?.split(',').filter(Boolean);
    const cases = withUpsideDown(parityCases(targets)).filter(
      (item) => !wanted || wanted.some((text) => item.name.includes(text)) || item.monitor.type === 'group',
    );
    kuma = await startKuma(opts.kumaDir, join(root, 'kuma'), log);
    const dockerHost =
      'socketPath' in targets.docker && cases.some((item) => item.dockerHost && !item.notRun)
        ? await kuma.addDockerHost('parity podman', targets.docker.socketPath)
        : null;

    // Groups first, so that members can name their parent.
    const ids = new Map<string, number>();
    const addedAt = new Map<string, number>();
    const ordered = [...cases.filter((item) => item.monitor.type === 'group'), ...cases.filter((item) => item.monitor.type !== 'group')];
    for (const item of ordered) {
      if (item.notRun) continue;
      const parent = item.group ? ids.get(item.group) : null;
      addedAt.set(item.name, Date.now());
      ids.set(
        item.name,
        await kuma.add({
          interval: INTERVAL,
          retryInterval: INTERVAL,
          timeout: 16,
          ...item.monitor,
          ...(item.dockerHost ? { docker_host: dockerHost } : {}),
          name: item.name,
          parent: parent ?? null,
        }),
      );
    }
    log(`${ids.size} monitors added to Kuma`);

    const pushedAt = new Map<string, number>();
    for (const item of cases.filter((entry) => entry.push)) {
      const status = item.push === 'down' ? 'down' : 'up';
      const response = await fetch(`http://127.0.0.1:${kuma.port}/api/push/${String(item.monitor.pushToken)}?status=${status}&msg=parity&ping=`);
      await response.arrayBuffer();
      pushedAt.set(item.name, Date.now());
    }

    // Every active monitor's second beat, or the wait's end.
    const active = cases.filter((item) => !item.notRun && item.monitor.active !== false && item.monitor.type !== 'group');
    const deadline = Date.now() + opts.waitSeconds * 1000;
    while (Date.now() < deadline) {
      const waiting = active.filter((item) => (kuma!.beats.get(ids.get(item.name)!)?.length ?? 0) < 2);
      if (waiting.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const judgedAt = Date.now();
    const kumaVerdicts = new Map(cases.map((item) => [item.name, kumaVerdict(item, kuma!.beats.get(ids.get(item.name) ?? -1))]));
    await kuma.stop();
    log('Kuma stopped; importing its database');

    const database = readFileSync(join(kuma.dataDir, 'kuma.db'));
    const conversion = await convertSelfhostedMonitorDbAsync(database);
    const warningsOf = new Map<string, ImportWarning[]>();
    for (const warning of conversion.warnings) warningsOf.set(warning.item, [...(warningsOf.get(warning.item) ?? []), warning]);
    const checkOf = new Map(conversion.checks.map((check) => [check.name, check]));
    const skipOf = new Map(conversion.skipped.map((skip) => [skip.item, skip]));

    const rows = await mapLimit(cases, 12, async (item): Promise<Row> => {
      const warnings = warningsOf.get(item.name) ?? [];
      const codes = warnings.map((warning) => warning.code);
      const type = String(item.monitor.type);
      if (item.notRun) {
        return { name: item.name, type, kuma: 'none', svc: 'skipped', outcome: 'n/a', warnings: codes, kumaMessage: item.notRun, svcMessage: '' };
      }
      const kumaSide = kumaVerdicts.get(item.name)!;
      const check = checkOf.get(item.name);
      const explained = warnings.some(explains);
      if (!check) {
        const skip = skipOf.get(item.name);
        const outcome: Outcome = skip?.reason === 'BECAME_LABEL' ? 'n/a' : explained ? 'warned' : 'silent';
        return {
          name: item.name,
          type,
          kuma: kumaSide.verdict,
          svc: 'skipped',
          outcome,
          warnings: codes,
          kumaMessage: kumaSide.message,
          svcMessage: skip?.message ?? 'no check',
        };
      }
      const push: PushTimes = { armedAt: addedAt.get(item.name) ?? judgedAt, lastPingAt: pushedAt.get(item.name) ?? null };
      const svcSide = await svcVerdict(check, item.secret, push, judgedAt).catch((error: Error) => ({ verdict: 'none' as Verdict, message: error.message }));
      const outcome: Outcome = same(kumaSide.verdict, svcSide.verdict) ? 'agree' : explained ? 'warned' : 'silent';
      return {
        name: item.name,
        type,
        kuma: kumaSide.verdict,
        svc: svcSide.verdict,
        outcome,
        warnings: codes,
        kumaMessage: kumaSide.message,
        svcMessage: svcSide.message,
      };
    });

    printTable(
      rows.map((row) => [
        row.name,
        row.type,
        row.kuma,
        row.svc,
        row.outcome,
        row.warnings.join(','),
        row.outcome === 'agree' ? '' : `kuma: ${row.kumaMessage} | svc: ${row.svcMessage}`.slice(0, 160),
      ]),
      ['monitor', 'type', 'kuma', 'svc', 'outcome', 'warnings', 'messages (differences)'],
    );
    const compared = rows.filter((row) => row.outcome !== 'n/a');
    const count = (outcome: Outcome) => compared.filter((row) => row.outcome === outcome).length;
    const summary = {
      monitors: compared.length,
      agree: count('agree'),
      warned: count('warned'),
      silent: count('silent'),
      notCompared: rows.length - compared.length,
    };
    process.stdout.write(
      `\n${summary.agree}/${summary.monitors} verdicts agree, ${summary.warned} differ with a warning, ${summary.silent} differ silently` +
        ` (${summary.notCompared} not compared: groups, and types that cannot run here)\n`,
    );
    if (opts.jsonOut) writeFileSync(opts.jsonOut, `${JSON.stringify({ summary, rows }, null, 2)}\n`);
    return summary;
  } finally {
    await kuma?.stop().catch(() => {});
    await targets.close();
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
    else log(`kept ${root}`);
  }
}
