import { describe, expect, it } from 'vitest';
import { ImportInputError } from '../../../importers/shared/import-input-error.js';
import { parseJsonText } from '../../../importers/shared/input-text.js';

// A token pasted where a JSON export belongs must not come back in the error: the parser's own
// message quotes the start of the input.
describe('malformed JSON input', () => {
  const failure = (text: string) => {
    try {
      parseJsonText(text, 'an export');
    } catch (error) {
      expect(error).toBeInstanceOf(ImportInputError);
      return (error as Error).message;
    }
    throw new Error('parsed');
  };

  it('never repeats the input', () => {
    for (const text of ['hcw_full_0123456789abcdef', 'u1234567-abcdefabcdef', '{\n "token": secret-token-value\n}']) {
      const message = failure(text);
      expect(message).toMatch(/^expected an export, but the input is not valid JSON \(unexpected text/);
      expect(message).not.toContain('hcw_full');
      expect(message).not.toContain('abcdef');
      expect(message).not.toContain('secret-token');
    }
  });

  it('says where it goes wrong when the parser knows', () => {
    expect(failure('{\n  "a": 1,\n}')).toBe('expected an export, but the input is not valid JSON (unexpected text at line 3, column 1)');
    expect(failure('{"a": ')).toBe('expected an export, but the input is not valid JSON (it ends too early)');
  });
});
