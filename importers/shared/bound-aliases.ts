/** Why the aliases of a document are refused; the caller turns it into an input error. */
export class AliasError extends Error {}

/** How far aliases may take a document. */
export interface AliasBounds {
  /** Nodes that aliases may stand for, in total. */
  maxExpandedNodes: number;
  /** Nesting depth of the document with every alias in place. */
  maxDepth: number;
}

/**
 * The YAML loader gives every alias of an anchor the very value the anchor holds, so a few
 * lines can stand for an exponentially large tree ("billion laughs"), a tree deeper than the
 * parser's own depth limit, or (an alias inside its own anchor) a cycle. The converter reads
 * the document as if every alias were expanded; this walks it that way first and throws an
 * AliasError as soon as aliases stand for more than `maxExpandedNodes` nodes, nest deeper than
 * `maxDepth`, or loop. A value reached a second time is an alias; its nodes are the expansion.
 */
export function boundAliases(document: unknown, bounds: AliasBounds): void {
  const seen = new Set<object>();
  const path = new Set<object>();
  let expanded = 0;

  const walk = (value: unknown, depth: number, repeated: boolean): void => {
    if (repeated && ++expanded > bounds.maxExpandedNodes) {
      throw new AliasError(`its aliases expand to more than ${bounds.maxExpandedNodes} nodes`);
    }
    if (typeof value !== 'object' || value === null) return;
    if (path.has(value)) throw new AliasError('an alias is inside its own anchor');
    if (depth > bounds.maxDepth) throw new AliasError(`its aliases nest it deeper than ${bounds.maxDepth} levels`);
    const again = repeated || seen.has(value);
    seen.add(value);
    path.add(value);
    for (const child of Array.isArray(value) ? value : Object.values(value)) walk(child, depth + 1, again);
    path.delete(value);
  };

  walk(document, 0, false);
}
