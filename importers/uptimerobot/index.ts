// The `uptime-api-monitor` source: the JSON of UptimeRobot's getMonitors (API v2), or of
// GET /v3/monitors.
import type { ConversionResult, ConvertOptions, Converter } from '../converter.js';
import { ConversionBuilder } from '../shared/conversion-builder.js';
import { inputText, isRecord, parseJsonText } from '../shared/input-text.js';
import { describeValue, textValue } from '../shared/values.js';
import { historyFieldsOf } from './dropped-settings.js';
import { EXPECTED, readListing, type ListedMonitor } from './listing.js';
import { monitorCandidate } from './monitor-check.js';
import { readV2Monitor } from './monitor-v2.js';
import { readV3Monitor } from './monitor-v3.js';

const PROGRESS_EVERY = 500;

function convertMonitor({ raw, version, position }: ListedMonitor, builder: ConversionBuilder): void {
  if (!isRecord(raw)) {
    builder.skip(builder.item(position), 'INVALID_ITEM', `the monitor is ${describeValue(raw)}, not an object`);
    return;
  }
  const name = (textValue(version === 2 ? raw.friendly_name : raw.friendlyName) ?? '').trim();
  const id = textValue(raw.id);
  const scope = builder.item(name || (id ? `monitor ${id}` : position));
  if (name === '') {
    builder.skip(scope, 'INVALID_ITEM', 'the monitor has no name', version === 2 ? 'friendly_name' : 'friendlyName');
    return;
  }
  const spec = version === 2 ? readV2Monitor(raw, name, scope) : readV3Monitor(raw, name, scope);
  if ('unsupported' in spec) {
    builder.skip(scope, 'UNSUPPORTED_TYPE', `${spec.unsupported}; the monitor was skipped`, 'type');
    return;
  }
  const candidate = monitorCandidate(spec, scope);
  if (typeof candidate === 'string') builder.skip(scope, 'INVALID_ITEM', candidate, spec.fields.port);
  else builder.emit(scope, candidate);
}

/**
 * Converts the monitors listing of UptimeRobot (v2 getMonitors, v3 /monitors, or a JSON list
 * of pages) into checks. Throws ImportInputError for anything else, including the API's own
 * error reply (`stat: "fail"`).
 */
export const convertUptimeApiMonitor: Converter = (input, options?: ConvertOptions): ConversionResult => {
  const listing = readListing(parseJsonText(inputText(input, EXPECTED), EXPECTED));
  const builder = new ConversionBuilder('uptime-api-monitor');
  const total = listing.monitors.length;
  // Status history never carries over: said once for the import, not once per monitor.
  const history = new Set<string>();
  let withHistory = 0;
  listing.monitors.forEach((monitor, index) => {
    if (isRecord(monitor.raw)) {
      const fields = historyFieldsOf(monitor.raw, monitor.version);
      if (fields.length > 0) withHistory++;
      for (const field of fields) history.add(field);
    }
    convertMonitor(monitor, builder);
    const done = index + 1;
    if (options?.onProgress && (done % PROGRESS_EVERY === 0 || done === total)) options.onProgress(done, total);
  });
  for (const message of listing.missingPages) builder.item('pagination').warn('INVALID_ITEM', message, 'pagination');
  if (withHistory > 0) {
    const fields = [...history];
    const monitors = withHistory === 1 ? '1 monitor' : `${withHistory} monitors`;
    builder.item('status history').warn('UNSUPPORTED_SETTING', `status history (${fields.join(', ')}) of ${monitors} never carries over`, fields[0]);
  }
  return builder.result();
};
