import type { Context } from 'koa';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../../checks/json-depth.js';
import { AppError, validationFailed } from '../errors.js';
import { refuseNulStrings } from './nul-bytes.js';

/** Reads the whole request body, refusing (413) as soon as it grows past `limit` bytes. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.destroy();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Reads a JSON body (an empty body reads as `{}`). */
export async function readJsonBody(ctx: Context, limit = 1024 * 1024): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return {};
  const type = ctx.get('content-type');
  if (type && !/json/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `This route takes a JSON body (Content-Type: application/json), not ${type.split(';')[0]}.`);
  }
  const parsed = tryParseJson(raw.toString('utf8'));
  if (!parsed) throw new AppError('VALIDATION_FAILED', 'The request body is not valid JSON.');
  return refuseNulStrings(refuseDeepNesting(parsed.value));
}

/** The JSON text's value, or undefined when it is not JSON. */
export function tryParseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The value, unless it nests deeper than MAX_JSON_DEPTH (400 VALIDATION_FAILED): the parse itself
 * does not recurse, but later walks over the document (validation, reserved-key checks, merge
 * patches, serialisation) do.
 */
export function refuseDeepNesting(value: unknown): unknown {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw validationFailed([{ path: '', message: tooDeepMessage(MAX_JSON_DEPTH) }], 'The request body is nested too deeply.');
  }
  return value;
}

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${formatBytes(limit)}.`, { limitBytes: limit });

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${Math.round(n / 1024)} KiB`);
