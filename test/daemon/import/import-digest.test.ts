import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../daemon/checks/canonical-json.js';
import { ConversionDigest, conversionDigest } from '../../../daemon/import/import-digest.js';
import type { ConversionResult } from '../../../importers/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const check = (slug: string) => ({
  slug,
  name: slug,
  type: 'http',
  enabled: true,
  intervalSeconds: 60,
  target: `https://${slug}.example.com/`,
  config: { method: 'GET', headers: { b: '2', a: '1' } },
  thresholds: { timeoutMs: 5000, failuresBeforeDown: 1, successesBeforeUp: 1 },
  labels: { 'svc-managed': 'uptime-api-monitor' },
});

describe('the digest of a conversion', () => {
  const full = {
    checks: [check('shop'), check('api')],
    warnings: [{ item: 'Shop', code: 'VALUE_ADJUSTED', message: 'the interval was raised to 10 s', field: 'interval', slug: 'shop' }],
    skipped: [{ item: 'Ping', reason: 'UNSUPPORTED_TYPE', message: 'no ping checks' }],
    pingTokens: { api: 'token' },
    maintenance: [{ name: 'Nightly', checks: ['shop'] }],
  } as unknown as ConversionResult;
  const results: Record<string, ConversionResult> = {
    full,
    'checks only': { checks: full.checks, warnings: [], skipped: [] },
    'no checks': { checks: [], warnings: full.warnings, skipped: full.skipped },
  };

  it.each(Object.keys(results))("hashes the canonical JSON of the whole result (%s), from the checks' canonical JSON as given", (name) => {
    const result = results[name];
    const expected = sha256(canonicalJson(result));
    expect(conversionDigest(result)).toBe(expected);
    expect(
      conversionDigest(
        result,
        result.checks.map((item) => canonicalJson(item)),
      ),
    ).toBe(expected);
  });

  it('is the same when the checks are added in batches, as the conversion worker sends them', () => {
    const checks = Array.from({ length: 7 }, (_, i) => check(`site-${i}`));
    const result = { ...full, checks } as ConversionResult;
    const digest = new ConversionDigest();
    for (const batch of [checks.slice(0, 3), [], checks.slice(3, 6), checks.slice(6)]) digest.addChecks(batch.map((item) => canonicalJson(item)));
    expect(digest.finish(result)).toBe(sha256(canonicalJson(result)));
  });
});
