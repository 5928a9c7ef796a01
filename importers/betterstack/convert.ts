import { ConversionBuilder, importLabels, type ConversionResult, type ConvertOptions, type ItemScope } from '../converter.js';
import { text } from './attributes.js';
import { hostedLists, type HostedMonitorData, type Resource } from './hosted-data.js';
import { heartbeatCandidate, heartbeatItem } from './map-heartbeat.js';
import { monitorCandidate, monitorItem } from './map-monitor.js';

const SOURCE = 'hosted-monitor-api';
const PROGRESS_EVERY = 500;

function groupLabel(attributes: Readonly<Record<string, unknown>>, key: string, names: ReadonlyMap<string, string>, scope: ItemScope): Record<string, string> {
  const id = text(attributes, key);
  if (id === undefined) return {};
  return importLabels([['group', names.get(id) ?? id]], scope, key);
}

/**
 * Converts the plain data the adapter fetched (or its saved JSON text): monitors first, then
 * heartbeats, each in the API's order. Pure: no network, no clock. Throws ImportInputError
 * only when the data as a whole is not such data.
 */
export function convertHostedMonitorApi(input: HostedMonitorData | Uint8Array | string, options: ConvertOptions = {}): ConversionResult {
  const lists = hostedLists(input);
  const builder = new ConversionBuilder(SOURCE);
  const total = lists.monitors.length + lists.heartbeats.length;
  let done = 0;
  const step = (resource: Resource, index: number, heartbeat: boolean) => {
    const { attributes, id } = resource;
    const scope = builder.item(heartbeat ? heartbeatItem(attributes, id, index) : monitorItem(attributes, id, index));
    if (attributes === undefined) {
      builder.skip(scope, 'INVALID_ITEM', `the ${heartbeat ? 'heartbeat' : 'monitor'} is not a resource with attributes`);
    } else if (heartbeat) {
      const candidate = heartbeatCandidate(attributes, scope);
      if (candidate === undefined) builder.skip(scope, 'INVALID_ITEM', 'the heartbeat has no period', 'period');
      else builder.emit(scope, { ...candidate, labels: groupLabel(attributes, 'heartbeat_group_id', lists.heartbeatGroups, scope) });
    } else {
      const outcome = monitorCandidate(attributes, scope);
      if ('skip' in outcome) builder.skip(scope, outcome.skip, outcome.message, outcome.field);
      else builder.emit(scope, { ...outcome, labels: groupLabel(attributes, 'monitor_group_id', lists.monitorGroups, scope) });
    }
    if (++done % PROGRESS_EVERY === 0) options.onProgress?.(done, total);
  };
  lists.monitors.forEach((resource, index) => step(resource, index, false));
  lists.heartbeats.forEach((resource, index) => step(resource, index, true));
  options.onProgress?.(total, total);
  return builder.result();
}
