import { escapeXml, SOAPENV_NS, XSD_NS, XSI_NS } from '@app/vim25';

/** One ObjectUpdate of a WaitForUpdatesEx answer, as XML, with the filter that reported it. */
export interface HeldUpdate {
  /** The `<filter type="PropertyFilter">…</filter>` element. */
  readonly filter: string;
  /** The `<objectSet>…</objectSet>` element (an ObjectUpdate). */
  readonly objectSet: string;
}

/**
 * The object updates of vcsim's WaitForUpdatesEx answer, in its order; undefined for an answer
 * with no UpdateSet (the wait ended without a change). vcsim writes each `filterSet` as a
 * `filter` then its `objectSet`s, and an ObjectUpdate holds no element of those names. Pure.
 */
export function readHeldUpdates(answer: string): HeldUpdate[] | undefined {
  if (!answer.includes('<returnval>')) return undefined;
  const updates: HeldUpdate[] = [];
  for (const set of answer.matchAll(/<filterSet>([\s\S]*?)<\/filterSet>/g)) {
    const filter = /<filter\b[^>]*>[\s\S]*?<\/filter>/.exec(set[1])?.[0];
    if (filter === undefined) continue;
    for (const objectSet of set[1].matchAll(/<objectSet>[\s\S]*?<\/objectSet>/g))
      updates.push({ filter, objectSet: objectSet[0] });
  }
  return updates;
}

/**
 * A WaitForUpdatesEx answer as vCenter writes it: UpdateSet `version`, the updates grouped per
 * filter in order (`filterSet`), `truncated` when more are held back (WSDL order). Pure.
 */
export function updateSetEnvelope(
  version: string,
  truncated: boolean,
  updates: readonly HeldUpdate[],
): string {
  let sets = '';
  let open: string | undefined;
  for (const update of updates) {
    if (update.filter !== open) {
      if (open !== undefined) sets += '</filterSet>';
      sets += `<filterSet>${update.filter}`;
      open = update.filter;
    }
    sets += update.objectSet;
  }
  if (open !== undefined) sets += '</filterSet>';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soapenv="${SOAPENV_NS}" xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}">` +
    '<soapenv:Body><WaitForUpdatesExResponse xmlns="urn:vim25"><returnval>' +
    `<version>${escapeXml(version)}</version>${sets}${truncated ? '<truncated>true</truncated>' : ''}` +
    '</returnval></WaitForUpdatesExResponse></soapenv:Body></soapenv:Envelope>'
  );
}
