import fc from 'fast-check';

/**
 * Texts made from `texts` by a few random edits: at a random place, some characters removed
 * and a random string or one of `tokens` (pieces of the format's syntax) inserted.
 */
export function mutatedText(texts: readonly string[], tokens: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.record({
    at: fc.nat(),
    remove: fc.nat({ max: 40 }),
    insert: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...tokens)),
  });
  return fc.tuple(fc.constantFrom(...texts), fc.array(edit, { minLength: 1, maxLength: 4 })).map(([original, edits]) =>
    edits.reduce((text, { at, remove, insert }) => {
      const position = at % (text.length + 1);
      return text.slice(0, position) + insert + text.slice(position + remove);
    }, original),
  );
}
