import { findStructureProblem } from './json-structure';

describe('JSON structure checks', () => {
  it('finds a key written twice in one object, however it is escaped', () => {
    expect(findStructureProblem('{"a":1,"a":2}')).toEqual({ kind: 'duplicate-key', key: 'a' });
    expect(findStructureProblem('{"a":1,"\\u0061":2}')).toEqual({ kind: 'duplicate-key', key: 'a' });
    expect(findStructureProblem('[{"x":{"a":1,"b":{"c":1}},"y":{"c":2,"c":3}}]')).toEqual({
      kind: 'duplicate-key',
      key: 'c',
    });
  });

  it('allows the same key in different objects, and keys that only look alike inside strings', () => {
    expect(findStructureProblem('[{"a":1},{"a":2}]')).toBeNull();
    expect(findStructureProblem('{"a":{"a":1},"b":"\\"a\\":","c":["a","a"]}')).toBeNull();
    expect(findStructureProblem('{"a":"}","b":"{\\"a\\":1,"}')).toBeNull();
  });

  it('stops at 32 levels of nesting', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(findStructureProblem(nested(32))).toBeNull();
    expect(findStructureProblem(nested(33))).toEqual({ kind: 'too-deep', depth: 33 });
    expect(findStructureProblem(`{"a":${nested(31)}}`)).toBeNull();
  });
});
