// A result message must not carry a secret's value, nor any piece of it a reader could put
// together, however the target or an expression encoded it: JSON-escaped, URL-encoded, base64,
// hex, in another case, cut short. So a message is searched for every PIECE-character window
// of each secret the check used, in each of those forms, and any part of the message that holds
// one is withheld as a whole.

/** The length of the smallest piece of a secret a message may not hold. */
export const PIECE = 8;

/** Secrets shorter than this are not searched for (they would match ordinary words). */
const SHORTEST = 3;

/** What replaces a part of a message that held a piece of a secret. */
export const WITHHELD = '[withheld: contained a secret]';

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function urlEncoded(text: string): string[] {
  try {
    const encoded = encodeURIComponent(text);
    return [encoded, encoded.replace(/%20/g, '+')];
  } catch {
    // A lone surrogate cannot be URL-encoded, so no message holds it so.
    return [];
  }
}

/** The forms one window of a secret may take in a message. */
function formsOf(window: string): string[] {
  const json = JSON.stringify(window).slice(1, -1);
  return [
    window,
    json,
    JSON.stringify(json).slice(1, -1),
    ...urlEncoded(window),
    window.replace(/[&<>"']/g, (char) => HTML[char]),
    Buffer.from(window, 'utf8').toString('hex'),
  ];
}

/**
 * The base64 (and base64url) text of every piece of `value`: a piece encoded on its own, or as
 * part of a longer text, gives the same groups as one of the three alignments of the whole
 * value, so these are the 8-character runs of whole groups of each alignment.
 */
function base64Pieces(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const pieces: string[] = [];
  for (let shift = 0; shift < 3 && shift < bytes.length; shift++) {
    const groups = Math.floor((bytes.length - shift) / 3);
    const text = bytes.subarray(shift, shift + groups * 3).toString('base64');
    if (groups < 2) continue;
    for (let at = 0; at + 8 <= text.length; at += 4) {
      const piece = text.slice(at, at + 8);
      pieces.push(piece, piece.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return pieces;
}

/**
 * Every text, lower-cased, whose presence in a message shows a piece of one of `secrets`: each
 * PIECE-long window (the whole value when shorter) in each form, and the base64 pieces.
 */
export function secretNeedles(secrets: readonly string[]): string[] {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < SHORTEST) continue;
    const size = Math.min(PIECE, secret.length);
    for (let at = 0; at + size <= secret.length; at++) for (const form of formsOf(secret.slice(at, at + size))) needles.add(form.toLowerCase());
    for (const piece of base64Pieces(secret)) needles.add(piece.toLowerCase());
  }
  return [...needles].filter((needle) => needle.length > 0);
}

// Where a message splits into parts that are withheld one by one: ", ", "; ", ": ", " - ".
const SEPARATOR = /, |; |: | - /g;

/**
 * `message` with every part that holds a piece of one of `secrets` replaced by WITHHELD. The
 * search ignores case. A message with no such piece comes back unchanged.
 */
export function withoutSecretPieces(message: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || message.length === 0) return message;
  const lower = message.toLowerCase();
  // Which characters of the message belong to a piece of a secret.
  const covered = new Uint8Array(message.length);
  let found = false;
  for (const needle of secretNeedles(secrets)) {
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
      covered.fill(1, at, at + needle.length);
      found = true;
    }
  }
  if (!found) return message;
  // Lower-casing changed the length (a few Unicode letters): positions no longer line up.
  if (lower.length !== message.length) return WITHHELD;
  const parts: string[] = [];
  let start = 0;
  const take = (end: number, separator: string) => {
    const part = message.slice(start, end);
    parts.push(covered.subarray(start, end).includes(1) ? WITHHELD : part, separator);
  };
  for (const match of message.matchAll(SEPARATOR)) {
    take(match.index, match[0]);
    start = match.index + match[0].length;
  }
  take(message.length, '');
  // Neighbouring withheld parts say so once.
  const text = parts.join('');
  return text.replace(new RegExp(`(${escapeRegExp(WITHHELD)})((?:, |; |: | - )${escapeRegExp(WITHHELD)})+`, 'g'), '$1');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
