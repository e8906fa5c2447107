/**
 * JSON as text the fuzzer writes itself, so it can say what `JSON.stringify` never would: a key
 * twice in one object, numbers beyond a double (`1e400`, 40 digits), lone surrogates as escapes,
 * or any raw bytes where a value should be.
 */
export type JsonNode =
  | { kind: 'object'; entries: [string, JsonNode][] }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'value'; value: string | number | boolean | null }
  | { kind: 'raw'; text: string };

export const value = (v: string | number | boolean | null): JsonNode => ({ kind: 'value', value: v });
export const raw = (text: string): JsonNode => ({ kind: 'raw', text });
export const object = (entries: [string, JsonNode][]): JsonNode => ({ kind: 'object', entries });
export const array = (items: JsonNode[]): JsonNode => ({ kind: 'array', items });

/** `value` from a plain JSON value (objects keep their key order). */
export function fromJson(json: unknown): JsonNode {
  if (Array.isArray(json)) return array(json.map(fromJson));
  if (json !== null && typeof json === 'object')
    return object(
      Object.entries(json as Record<string, unknown>).map(([key, item]) => [key, fromJson(item)]),
    );
  if (typeof json === 'string' || typeof json === 'number' || typeof json === 'boolean' || json === null)
    return value(json);
  return value(null);
}

export function toText(node: JsonNode): string {
  switch (node.kind) {
    case 'raw':
      return node.text;
    case 'value':
      return JSON.stringify(node.value) ?? 'null';
    case 'array':
      return `[${node.items.map(toText).join(',')}]`;
    case 'object':
      return `{${node.entries.map(([key, item]) => `${JSON.stringify(key)}:${toText(item)}`).join(',')}}`;
  }
}
