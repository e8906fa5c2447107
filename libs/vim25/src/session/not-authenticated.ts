import type { SoapReply } from '../soap/soap-transport';
import { VimFault } from '../soap/vim-errors';
import { readResponse } from '../xml/envelope-reader';
import { asObject } from '../xml/values';
import { toRetrieveResult } from '../methods/property-results';

const PAGED = new Set(['RetrievePropertiesEx', 'ContinueRetrievePropertiesEx', 'RetrieveProperties']);

/**
 * Tells whether a reply means "this session is gone": a NotAuthenticated SOAP fault, or (vCenter
 * and vcsim both do this) a RetrievePropertiesEx answer whose missingSet holds NotAuthenticated.
 * Pure; parses only replies that mention NotAuthenticated.
 */
export function isNotAuthenticatedReply(operation: string, reply: SoapReply): boolean {
  if (!reply.body.includes('NotAuthenticated')) return false;
  try {
    const value = readResponse(operation, reply);
    if (!PAGED.has(operation)) return false;
    return toRetrieveResult(value).objects.some((o) =>
      o.missing.some(
        (m) =>
          asObject(asObject(m.fault)?.fault)?._type === 'NotAuthenticated' ||
          asObject(m.fault)?._type === 'NotAuthenticated',
      ),
    );
  } catch (err) {
    return err instanceof VimFault && err.faultType === 'NotAuthenticated';
  }
}
