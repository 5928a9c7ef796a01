import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Reads the `.cpuprofile` files `node --cpu-prof` writes and names where the time went:
// the functions with the most self time, and the share of each.

/** A node of a V8 CPU profile: one frame of a call tree. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** A frame as the benchmarks print it: the function, then its file (from node_modules or the checkout) and line. */
export function frameName({ callFrame: { functionName, url, lineNumber } }: ProfileNode): string {
  const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
}

/** The `top` frames by self time over every profile in `dir`, as [frame, share] rows. */
export function topFrames(dir: string, top = 15): Array<{ frame: string; percent: number }> {
  const self = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const id of profile.samples) {
      const frame = frameName(byId.get(id)!);
      self.set(frame, (self.get(frame) ?? 0) + 1);
      total++;
    }
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, samples]) => ({ frame, percent: (samples * 100) / total }));
}

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) return path.slice(modules + 'node_modules/'.length);
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}
