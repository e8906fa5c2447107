const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The REST collection each vSphere attribute links to (`/api/vmware-templates/<uuid>/`). */
export const LINK_COLLECTIONS = {
  template: 'vmware-templates',
  cluster: 'vmware-clusters',
  datastore: 'vmware-datastores',
  folder: 'vmware-folders',
  networks: 'vmware-networks',
} as const;

export type LinkedAttribute = keyof typeof LINK_COLLECTIONS;

// DRF's messages for a hyperlinked field.
export const NO_URL_MATCH = 'Invalid hyperlink - No URL match.';
export const INCORRECT_TYPE = 'Incorrect type. Expected URL string, received %s.';
export const NOT_A_LIST = 'Expected a list of items but got type "%s".';

/** A link the user sent, reduced to the uuid it names, or the message saying why it names none. */
export type ParsedLink = { ok: true; uuid: string } | { ok: false; message: string };

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'dict' : typeof value;
}

/**
 * A link to an object of `attribute`'s collection in any of the forms Waldur's clients send: the
 * full URL, the path, or the bare uuid (`{url}` objects for networks are unwrapped by the caller). Pure.
 */
export function parseLink(attribute: LinkedAttribute, value: unknown): ParsedLink {
  if (typeof value !== 'string') return { ok: false, message: INCORRECT_TYPE.replace('%s', typeName(value)) };
  const pattern = new RegExp(
    `^(?:(?:[a-z][a-z0-9+.-]*://[^/]+)?/api/${LINK_COLLECTIONS[attribute]}/)?(${UUID})/?$`,
    'i',
  );
  const match = pattern.exec(value.trim());
  return match ? { ok: true, uuid: match[1].toLowerCase() } : { ok: false, message: NO_URL_MATCH };
}

/** `networks` as a list of links or of `{url}` objects (the form Waldur's frontend sends). Pure. */
export function parseNetworkLinks(
  value: unknown,
): { ok: true; uuids: string[] } | { ok: false; message: string } {
  if (!Array.isArray(value)) return { ok: false, message: NOT_A_LIST.replace('%s', typeName(value)) };
  const uuids: string[] = [];
  for (const item of value as unknown[]) {
    const link =
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? (item as { url?: unknown }).url
        : item;
    const parsed = parseLink('networks', link);
    if (!parsed.ok) return parsed;
    if (!uuids.includes(parsed.uuid)) uuids.push(parsed.uuid);
  }
  return { ok: true, uuids };
}
