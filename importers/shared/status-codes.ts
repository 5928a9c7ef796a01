import type { ItemScope } from './item-scope.js';

const STATUS_CODE = /^([1-5]\d\d)$/;
const STATUS_RANGE = /^([1-5]\d\d)\s*-\s*([1-5]\d\d)$/;
const STATUS_CLASS = /^([1-5])xx$/i;

function statusCode(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (STATUS_CODE.test(text)) return Number(text);
  const range = STATUS_RANGE.exec(text);
  if (range) return Number(range[1]) <= Number(range[2]) ? `${range[1]}-${range[2]}` : undefined;
  const statusClass = STATUS_CLASS.exec(text);
  return statusClass ? `${statusClass[1]}00-${statusClass[1]}99` : undefined;
}

/**
 * Accepted status codes the catalog accepts (codes, "200-299" ranges, "2xx" classes), from
 * the source's list. Unreadable entries are dropped with `VALUE_ADJUSTED`; undefined (the
 * catalog's default, 200-299) when nothing usable is left, with a warning if something was
 * given. At most 50 are kept.
 */
export function importStatusCodes(values: readonly unknown[], scope: ItemScope, field: string): (number | string)[] | undefined {
  const codes: (number | string)[] = [];
  for (const value of values) {
    const code = statusCode(value);
    if (code === undefined) {
      scope.warn('VALUE_ADJUSTED', `the accepted status ${JSON.stringify(value)} is not a status code or range and was left out`, field);
    } else if (!codes.includes(code)) codes.push(code);
  }
  if (codes.length > 50) {
    scope.warn('VALUE_ADJUSTED', `only the first 50 of ${codes.length} accepted statuses were kept`, field);
    codes.length = 50;
  }
  if (codes.length === 0) {
    if (values.length > 0) scope.warn('VALUE_ADJUSTED', 'no usable accepted status is left; 200-299 is accepted', field);
    return undefined;
  }
  return codes;
}
