import { ApiError } from './api-errors';
import { jsonBody, sessionOf, type ApiAnswer, type ApiRequest, type FrontContext } from './front-context';
import { VCSIM_REST, withoutVcsimInternals } from './vcsim-rest';

/** vCenter 8's NOT_FOUND for a library id. */
export const libraryNotFound = (id: string) => (): ApiError =>
  new ApiError(
    'NOT_FOUND',
    `Library with identifier ${id} does not exist.`,
    'com.vmware.vdcs.cls-main.library_not_found',
    [id],
  );

/** vCenter 8's NOT_FOUND for a library item id. */
export const itemNotFound = (id: string) => (): ApiError =>
  new ApiError(
    'NOT_FOUND',
    `Library item with identifier ${id} does not exist.`,
    'com.vmware.vdcs.cls-main.library_item_not_found',
    [id],
  );

const noRoute = (): ApiError =>
  new ApiError('NOT_FOUND', 'Not found.', 'com.vmware.vapi.std.errors.not_found');

const asList = (v: unknown): unknown => (v === null || v === undefined ? [] : v);

/** `GET /api/content/library` → ids (vcsim's `null` for none becomes `[]`). */
export async function listLibraries(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const v = await ctx.rest.ok(
    'GET',
    VCSIM_REST.library,
    { operation: 'library.list', notFound: noRoute },
    { session: sessionOf(req) },
  );
  return { status: 200, body: asList(v) };
}

/** `GET /api/content/library/{id}` → the library. */
export async function getLibrary(ctx: FrontContext, req: ApiRequest, id: string): Promise<ApiAnswer> {
  const v = await ctx.rest.ok(
    'GET',
    VCSIM_REST.libraryId(id),
    { operation: 'library.get', notFound: libraryNotFound(id) },
    { session: sessionOf(req) },
  );
  return { status: 200, body: withoutVcsimInternals(v) };
}

/** `POST /api/content/local-library` (body: the create spec) → 201 with the id. */
export async function createLocalLibrary(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const spec = jsonBody(req);
  const v = await ctx.rest.ok(
    'POST',
    VCSIM_REST.localLibrary,
    { operation: 'local_library.create', notFound: noRoute },
    { session: sessionOf(req), body: { create_spec: spec } },
  );
  return { status: 201, body: v };
}

/** `GET /api/content/library/item?library_id=` → item ids; unknown library: NOT_FOUND. */
export async function listItems(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const libraryId = req.query.get('library_id');
  if (libraryId === null || libraryId === '') {
    throw new ApiError(
      'INVALID_ARGUMENT',
      'The parameter library_id is required.',
      'vapi.method.input.missing',
      ['library_id'],
    );
  }
  const v = await ctx.rest.ok(
    'GET',
    VCSIM_REST.items(libraryId),
    { operation: 'library.item.list', notFound: libraryNotFound(libraryId) },
    { session: sessionOf(req) },
  );
  return { status: 200, body: asList(v) };
}

/** `GET /api/content/library/item/{id}` → the item. */
export async function getItem(ctx: FrontContext, req: ApiRequest, id: string): Promise<ApiAnswer> {
  const v = await ctx.rest.ok(
    'GET',
    VCSIM_REST.itemId(id),
    { operation: 'library.item.get', notFound: itemNotFound(id) },
    { session: sessionOf(req) },
  );
  return { status: 200, body: withoutVcsimInternals(v) };
}

/** `DELETE /api/content/library/item/{id}` → 204; unknown item: NOT_FOUND. */
export async function deleteItem(ctx: FrontContext, req: ApiRequest, id: string): Promise<ApiAnswer> {
  await ctx.rest.ok(
    'DELETE',
    VCSIM_REST.itemId(id),
    { operation: 'library.item.delete', notFound: itemNotFound(id) },
    { session: sessionOf(req) },
  );
  ctx.undescribedTemplates.delete(id);
  return { status: 204 };
}
