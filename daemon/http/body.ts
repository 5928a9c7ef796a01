import type { Context } from 'koa';
import { AppError } from '../errors.js';

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
    throw new AppError('VALIDATION_FAILED', 'Send the body as JSON (Content-Type: application/json).');
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid JSON.');
  }
}

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${formatBytes(limit)}.`, { limitBytes: limit });

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${Math.round(n / 1024)} KiB`);
