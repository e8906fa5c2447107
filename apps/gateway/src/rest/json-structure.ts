/**
 * What `JSON.parse` lets through silently and a JSON body must not have: a key written twice in one
 * object (the parser keeps the last, while another reader of the same bytes, a proxy or a log,
 * may keep the first: two views of one request), and nesting deep enough to exhaust a recursive
 * reader further on. Scans text that `JSON.parse` has already accepted, so it only needs to find
 * strings, brackets, colons and commas.
 */
export const MAX_JSON_DEPTH = 32;

export type JsonStructureProblem =
  { kind: 'duplicate-key'; key: string } | { kind: 'too-deep'; depth: number };

interface Frame {
  object: boolean;
  keys: Set<string>;
  expectingKey: boolean;
}

/** The first structural problem of valid JSON text, or null. */
export function findStructureProblem(text: string, maxDepth = MAX_JSON_DEPTH): JsonStructureProblem | null {
  const stack: Frame[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') {
      const end = stringEnd(text, index);
      const frame = stack[stack.length - 1];
      if (frame?.object && frame.expectingKey) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        if (frame.keys.has(key)) return { kind: 'duplicate-key', key };
        frame.keys.add(key);
        frame.expectingKey = false;
      }
      index = end;
    } else if (char === '{' || char === '[') {
      if (stack.length + 1 > maxDepth) return { kind: 'too-deep', depth: stack.length + 1 };
      stack.push({ object: char === '{', keys: new Set(), expectingKey: char === '{' });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',') {
      const frame = stack[stack.length - 1];
      if (frame?.object) frame.expectingKey = true;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '"') return index;
  }
  return text.length - 1;
}
