// Every vSphere Automation path the client uses, in one place. vCenter 8's `/api` only: the
// deprecated `/rest` (with `{"value": ...}` wrappers and `id:` prefixes) is never used.

const segment = (id: string): string => encodeURIComponent(id);

/** Header that carries the session id on every call after `POST /api/session`. */
export const SESSION_HEADER = 'vmware-api-session-id';

/** The `/api` paths of the vSphere Automation API the client calls. Pure. */
export const REST_PATHS = {
  /** POST (basic auth) creates, GET reads, DELETE ends the session. */
  session: '/api/session',
  /** GET: ids of all libraries. */
  libraries: '/api/content/library',
  /** GET: one library. */
  library: (libraryId: string): string => `/api/content/library/${segment(libraryId)}`,
  /** POST: create a local library. */
  localLibraries: '/api/content/local-library',
  /** GET: ids of the items of one library. */
  libraryItems: (libraryId: string): string =>
    `/api/content/library/item?${new URLSearchParams({ library_id: libraryId }).toString()}`,
  /** GET: one library item. */
  libraryItem: (itemId: string): string => `/api/content/library/item/${segment(itemId)}`,
  /** POST: create a vm-template item from a VM. */
  vmTemplateItems: '/api/vcenter/vm-template/library-items',
  /** GET: details of a vm-template item. */
  vmTemplateItem: (itemId: string): string => `/api/vcenter/vm-template/library-items/${segment(itemId)}`,
  /** POST: deploy a vm-template item into a new VM. */
  vmTemplateDeploy: (itemId: string): string =>
    `/api/vcenter/vm-template/library-items/${segment(itemId)}?action=deploy`,
} as const;
