import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';

/** Why aliases could not be expanded; the caller turns it into an input error. */
export class AliasError extends Error {}

interface Anchored {
  node: Node;
  /** Nodes in the anchored value once its own aliases are expanded; -1 while it is being read. */
  size: number;
}

/**
 * Replaces every alias of `doc` with the node its anchor names, in document order (an alias
 * refers to the closest preceding anchor of that name), so that converting the document to
 * plain values never has to look anchors up. The yaml package does that lookup by scanning
 * all anchors and aliases for each alias, which is quadratic in files where every endpoint
 * merges `<<: *defaults`.
 *
 * Expanding is also where a "billion laughs" document is caught: the number of nodes that
 * aliases stand for is counted, and more than `maxExpandedNodes` (or an alias inside its
 * own anchor) is an AliasError before anything is built.
 */
export function expandAliases(doc: Document, maxExpandedNodes: number): void {
  const anchors = new Map<string, Anchored>();
  let expanded = 0;

  const resolve = (alias: { source: string }): Node => {
    const anchored = anchors.get(alias.source);
    if (!anchored) throw new AliasError(`the alias *${alias.source} has no anchor &${alias.source} before it`);
    if (anchored.size < 0) throw new AliasError(`the alias *${alias.source} is inside its own anchor`);
    expanded += anchored.size;
    if (expanded > maxExpandedNodes) {
      throw new AliasError(`its aliases expand to more than ${maxExpandedNodes} nodes`);
    }
    return anchored.node;
  };

  // Returns the node to keep in place of `node` and the number of nodes it stands for.
  const walk = (node: unknown): { node: unknown; size: number } => {
    if (isAlias(node)) {
      const target = resolve(node);
      return { node: target, size: anchors.get(node.source)?.size ?? 1 };
    }
    const anchor = isScalar(node) || isMap(node) || isSeq(node) ? node.anchor : undefined;
    const entry: Anchored | undefined = anchor === undefined ? undefined : { node: node as Node, size: -1 };
    if (anchor !== undefined && entry) anchors.set(anchor, entry);
    let size = 1;
    if (isMap(node) || isSeq(node)) {
      const items = node.items as unknown[];
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (isPair(item)) {
          const key = walk(item.key);
          const value = walk(item.value);
          item.key = key.node;
          item.value = value.node;
          size += key.size + value.size;
        } else {
          const inner = walk(item);
          items[i] = inner.node;
          size += inner.size;
        }
      }
    }
    if (entry) entry.size = size;
    return { node, size };
  };

  doc.contents = walk(doc.contents).node as Document['contents'];
}
