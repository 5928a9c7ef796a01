import { isRecord } from '../shared/input-text.js';
import type { ConversionBuilder } from '../shared/conversion-builder.js';
import type { ItemScope } from '../shared/item-scope.js';
import { hideUrlCredentials } from '../shared/url-credentials.js';
import { describeValue, textValue } from '../shared/values.js';
import { parseDuration } from './duration.js';
import { readRelabelRules, relabel, type Labels } from './relabel.js';
import { fileTargetGroups, readTargetGroup, type TargetGroup } from './target-files.js';

/** One probe Prometheus asks the exporter for: a target with a module, at the job's pace. */
export interface ProbeTarget {
  job: string;
  /** The `target` parameter after relabelling. */
  target: string;
  /** The `module` parameter; `http_2xx` when none is sent (prober/handler.go). */
  module: string;
  /** The `hostname` parameter (the Host header and TLS server name of an HTTP probe), when sent. */
  hostname?: string;
  /** The target's own labels after relabelling (no `__` labels, no `instance` that repeats the target). */
  labels: [string, string][];
  intervalMs: number;
  scrapeTimeoutMs: number;
  /** Where the target is written, for warnings. */
  field: string;
}

// Prometheus' defaults (config/config.go of Prometheus): scrape every minute, time out after 10 s.
const DEFAULT_INTERVAL_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 10_000;
// The exporter's module when the request names none (prober/handler.go).
const DEFAULT_MODULE = 'http_2xx';
const SERVICE_DISCOVERY = /_sd_configs$/;

function durationMs(raw: unknown, fallback: number, field: string, scope: ItemScope): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const ms = parseDuration(textValue(raw) ?? '');
  if (ms === undefined || ms <= 0) {
    scope.warn('VALUE_ADJUSTED', `${field} ${describeValue(raw)} is not a duration such as 30s; ${fallback / 1000} s is used`, field);
    return fallback;
  }
  return ms;
}

// `params: {module: [http_2xx]}` becomes the label `__param_module` (its first value) before relabelling.
function paramLabels(raw: unknown, scope: ItemScope): [string, string][] {
  if (!isRecord(raw)) return [];
  return Object.entries(raw).flatMap(([name, values]) => {
    const list = Array.isArray(values) ? values : [values];
    if (name === 'module' && list.length > 1) {
      scope.warn(
        'VALUE_ADJUSTED',
        `params.module lists ${list.length} modules; the exporter probes with the first, ${describeValue(list[0])}`,
        'params.module',
      );
    }
    const first = textValue(list[0]);
    return first === undefined ? [] : [[`__param_${name}`, first] as [string, string]];
  });
}

function probedTarget(labels: Labels, job: string, field: string): Omit<ProbeTarget, 'intervalMs' | 'scrapeTimeoutMs'> | string {
  const target = labels.get('__param_target')?.trim();
  if (!target) return 'no `target` parameter is sent for this target (relabel `__address__` to `__param_target`); the exporter would refuse the probe';
  const own = [...labels].filter(([name, value]) => !name.startsWith('__') && !(name === 'instance' && value === target));
  const hostname = labels.get('__param_hostname')?.trim() || undefined;
  return { job, target, module: labels.get('__param_module') || DEFAULT_MODULE, hostname, labels: own, field };
}

/**
 * The probes of the jobs that scrape an exporter's `/probe` path, in the order Prometheus
 * lists them: targets of `static_configs` and of the given `file_sd_configs` files, each with
 * its labels relabelled as Prometheus would. Jobs that scrape anything else are not probes
 * and are passed over.
 */
export function probeTargets(prometheus: Record<string, unknown>, targetFiles: ReadonlyMap<string, unknown>, builder: ConversionBuilder): ProbeTarget[] {
  const global = isRecord(prometheus.global) ? prometheus.global : {};
  const globalScope = builder.item('global');
  const globalInterval = durationMs(global.scrape_interval, DEFAULT_INTERVAL_MS, 'global.scrape_interval', globalScope);
  const globalTimeout = durationMs(global.scrape_timeout, DEFAULT_TIMEOUT_MS, 'global.scrape_timeout', globalScope);
  const jobs = Array.isArray(prometheus.scrape_configs) ? prometheus.scrape_configs : [];
  const probes: ProbeTarget[] = [];
  jobs.forEach((job, index) => {
    if (!isRecord(job) || textValue(job.metrics_path)?.trim() !== '/probe') return;
    const name = textValue(job.job_name)?.trim() || `scrape_configs[${index}]`;
    const scope = builder.item(name);
    const intervalMs = durationMs(job.scrape_interval, globalInterval, 'scrape_interval', scope);
    const scrapeTimeoutMs = Math.min(intervalMs, durationMs(job.scrape_timeout, Math.min(globalTimeout, intervalMs), 'scrape_timeout', scope));
    const rules = readRelabelRules(job.relabel_configs, scope, 'relabel_configs');
    const groups: TargetGroup[] = [];
    if (Array.isArray(job.static_configs)) {
      job.static_configs.forEach((group, i) => {
        const read = readTargetGroup(group, `static_configs[${i}]`, scope);
        if (read) groups.push(read);
      });
    }
    if (Array.isArray(job.file_sd_configs)) {
      job.file_sd_configs.forEach((entry, i) => groups.push(...fileTargetGroups(entry, `file_sd_configs[${i}]`, targetFiles, scope)));
    }
    for (const key of Object.keys(job)) {
      if (SERVICE_DISCOVERY.test(key) && key !== 'file_sd_configs' && job[key] !== null) {
        scope.warn(
          'UNSUPPORTED_SETTING',
          `targets found by ${key.replace(/_sd_configs$/, '')} service discovery are not imported; list them in static_configs`,
          key,
        );
      }
    }
    const base: [string, string][] = [
      ['job', name],
      ['__metrics_path__', '/probe'],
      ['__scheme__', textValue(job.scheme) ?? 'http'],
      ...paramLabels(job.params, scope),
    ];
    for (const group of groups) {
      for (const address of group.targets) {
        const labels = relabel(rules, new Map([...base, ...group.labels, ['__address__', address]]));
        if (!labels) continue;
        const probe = probedTarget(labels, name, group.field);
        if (typeof probe === 'string') builder.skip(builder.item(`${name}: ${hideUrlCredentials(address)}`), 'INVALID_ITEM', probe, 'relabel_configs');
        else probes.push({ ...probe, intervalMs, scrapeTimeoutMs });
      }
    }
  });
  return probes;
}
