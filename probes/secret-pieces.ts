// A result message must not carry a secret's value, nor any piece of it a reader could put
// together, however the target or an expression encoded it: JSON-escaped, URL-encoded, base64,
// hex, HTML-escaped, in another case, cut short. So each part of a message is decoded every way
// it could have been encoded and searched for every PIECE-character window of each secret the
// check used; a part that holds one is withheld as a whole.

/** The length of the smallest piece of a secret a message may not hold. */
export const PIECE = 8;

/** Secrets shorter than this are not searched for (they would match ordinary words). */
const SHORTEST = 3;

/** What replaces a part of a message that held a piece of a secret. */
export const WITHHELD = '[withheld: contained a secret]';

const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;
const JSON_SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const HTML_ENTITY = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g;
const HTML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const unescapeJson = (text: string) =>
  text.replace(JSON_ESCAPE, (_, hex: string | undefined, simple: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : JSON_SIMPLE[simple!]));
const unescapeHtml = (text: string) =>
  text.replace(HTML_ENTITY, (_, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
    const code = dec ? Number(dec) : hex ? parseInt(hex, 16) : undefined;
    return code === undefined ? HTML_NAMED[named!] : code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });

function urlDecoded(text: string): string {
  const plus = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // A stray "%": decode the well-formed escapes one by one (as bytes, so UTF-8 may come out as Latin-1).
    return plus.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** `bytes` read as UTF-8 and as Latin-1, since either may be how the secret's characters became bytes. */
const asText = (bytes: Buffer) => [bytes.toString('utf8'), bytes.toString('latin1')];

/** Every way `text` reads once decoded: as is, JSON-unescaped (once, twice), URL-decoded, HTML-unescaped, and its hex and base64 runs decoded. */
function readings(text: string): string[] {
  const json = unescapeJson(text);
  const forms = [text, json, unescapeJson(json), urlDecoded(text), urlDecoded(json), unescapeHtml(text)];
  for (const [run] of text.matchAll(/[0-9a-fA-F]{16,}/g)) for (const shift of [0, 1]) forms.push(...asText(Buffer.from(run.slice(shift), 'hex')));
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{11,}/g)) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/');
    // The run may start anywhere in the encoded text: each of the four alignments.
    for (let shift = 0; shift < 4; shift++)
      forms.push(...asText(Buffer.from(standard.slice(shift, shift + Math.floor((standard.length - shift) / 4) * 4), 'base64')));
  }
  return forms;
}

/** The pieces to look for: every window of each secret, lower-cased, by window length. */
function piecesOf(secrets: readonly string[]): Map<number, Set<string>> {
  const bySize = new Map<number, Set<string>>();
  for (const secret of secrets) {
    if (secret.length < SHORTEST) continue;
    const size = Math.min(PIECE, secret.length);
    const pieces = bySize.get(size) ?? new Set<string>();
    const lower = secret.toLowerCase();
    for (let at = 0; at + size <= lower.length; at++) pieces.add(lower.slice(at, at + size));
    bySize.set(size, pieces);
  }
  return bySize;
}

/** Whether `text`, read any way it could be encoded, shows one of the pieces. */
function showsPiece(text: string, pieces: Map<number, Set<string>>): boolean {
  for (const reading of readings(text)) {
    const lower = reading.toLowerCase();
    for (const [size, set] of pieces) {
      for (let at = 0; at + size <= lower.length; at++) if (set.has(lower.slice(at, at + size))) return true;
    }
  }
  return false;
}

// Where a message splits into parts that are withheld one by one: ", ", "; ", ": ", " - ".
const SEPARATOR = /(, |; |: | - )/;

/**
 * `message` with every part that shows a piece of one of `secrets` replaced by WITHHELD (the
 * whole message when the piece spans parts). The search ignores case. A message with no such
 * piece comes back unchanged.
 */
export function withoutSecretPieces(message: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || message.length === 0) return message;
  const pieces = piecesOf(secrets);
  if (pieces.size === 0 || !showsPiece(message, pieces)) return message;
  // Parts at even indexes, separators between them.
  const parts = message.split(SEPARATOR);
  let withheld = false;
  for (let index = 0; index < parts.length; index += 2) {
    if (showsPiece(parts[index], pieces)) {
      parts[index] = WITHHELD;
      withheld = true;
    }
  }
  if (!withheld) return WITHHELD;
  // Neighbouring withheld parts say so once.
  const kept: string[] = [];
  for (let index = 0; index < parts.length; index += 2) {
    if (parts[index] === WITHHELD && kept.at(-1) === WITHHELD) continue;
    if (kept.length > 0) kept.push(parts[index - 1]);
    kept.push(parts[index]);
  }
  return kept.join('');
}
