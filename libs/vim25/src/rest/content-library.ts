import { REST_PATHS } from './rest-paths';
import {
  decodeWith,
  IdListSchema,
  IdSchema,
  LibraryItemModelSchema,
  LibraryModelSchema,
  type LibraryItemModel,
  type LibraryModel,
  type LocalLibraryCreateSpec,
} from './rest-models';
import type { VapiCaller } from './rest-session';
import type { RestCallOptions } from './rest-transport';

/** `GET /api/content/library`: ids of every library. One round trip. */
export function listLibraries(caller: VapiCaller, options?: RestCallOptions): Promise<string[]> {
  return caller.invoke(
    'ListLibraries',
    { method: 'GET', path: REST_PATHS.libraries },
    decodeWith(IdListSchema),
    options,
  );
}

/** `GET /api/content/library/{id}`: one library. Unknown id: VapiError NOT_FOUND. One round trip. */
export function getLibrary(
  caller: VapiCaller,
  libraryId: string,
  options?: RestCallOptions,
): Promise<LibraryModel> {
  return caller.invoke(
    'GetLibrary',
    { method: 'GET', path: REST_PATHS.library(libraryId) },
    decodeWith(LibraryModelSchema),
    options,
  );
}

/** `POST /api/content/local-library`: creates a local library; returns its id. One round trip. */
export function createLocalLibrary(
  caller: VapiCaller,
  spec: LocalLibraryCreateSpec,
  options?: RestCallOptions,
): Promise<string> {
  return caller.invoke(
    'CreateLocalLibrary',
    { method: 'POST', path: REST_PATHS.localLibraries, body: { ...spec, type: 'LOCAL' } },
    decodeWith(IdSchema),
    options,
  );
}

/** `GET /api/content/library/item?library_id=`: ids of a library's items. Unknown library: NOT_FOUND. One round trip. */
export function listLibraryItems(
  caller: VapiCaller,
  libraryId: string,
  options?: RestCallOptions,
): Promise<string[]> {
  return caller.invoke(
    'ListLibraryItems',
    { method: 'GET', path: REST_PATHS.libraryItems(libraryId) },
    decodeWith(IdListSchema),
    options,
  );
}

/** `GET /api/content/library/item/{id}`: one item (its `type`, e.g. `vm-template`). Unknown id: NOT_FOUND. One round trip. */
export function getLibraryItem(
  caller: VapiCaller,
  itemId: string,
  options?: RestCallOptions,
): Promise<LibraryItemModel> {
  return caller.invoke(
    'GetLibraryItem',
    { method: 'GET', path: REST_PATHS.libraryItem(itemId) },
    decodeWith(LibraryItemModelSchema),
    options,
  );
}
