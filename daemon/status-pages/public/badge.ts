import { markup } from '../../markup.js';

// Widths come from average glyph widths of Verdana 11px, as shields-style badges use.
const charWidth = (text: string) => Math.ceil(text.length * 6.6 + 10);

const COLOURS: Record<string, string> = { up: '#1a7f37', degraded: '#9a6700', down: '#cf222e', paused: '#6e7781', pending: '#6e7781', maintenance: '#0969da' };

/** A shields-style SVG badge: a grey label and a coloured value, with the text also as its title. */
export function renderBadge(label: string, value: string, colour: string): string {
  const left = charWidth(label);
  const right = charWidth(value);
  const width = left + right;
  const title = `${label}: ${value}`;
  return markup`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}"><title>${title}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${colour}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="14">${label}</text><text x="${left + right / 2}" y="14">${value}</text></g></svg>
`.toString();
}

/** The badge of a check's current state. */
export const stateBadge = (name: string, state: string): string => renderBadge(name, state, COLOURS[state] ?? COLOURS.pending);

/** The badge of a check's uptime over a window. */
export function uptimeBadge(window: string, uptimePercent: number | null): string {
  const colour = uptimePercent === null ? COLOURS.pending : uptimePercent >= 99.9 ? COLOURS.up : uptimePercent >= 95 ? COLOURS.degraded : COLOURS.down;
  return renderBadge(`uptime ${window}`, uptimePercent === null ? 'no data' : `${uptimePercent}%`, colour);
}
