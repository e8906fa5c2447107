import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { InventoryKind } from '@app/contracts';
import {
  connectRest,
  connectVim,
  getLibraryItem,
  listLibraries,
  listLibraryItems,
  readClusters,
  readDatastores,
  readNetworks,
  readVmFolders,
  REST_PATHS,
  RestSessionRegistry,
  VapiError,
  VimSessionRegistry,
  type LibraryItemModel,
  type RestCallOptions,
  type VapiCaller,
  type VimConnection,
  type VimContext,
} from '@app/vim25';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type {
  InventoryReadOptions,
  InventorySnapshot,
  InventorySource,
  RemoteReadError,
  RemoteTemplateItem,
} from '../ports/inventory-source.port';
import { INVENTORY_METER, seconds, type InventoryMeter } from './inventory-meter';
import { mapLimit } from './map-limit';

// Library items are read this many at a time: vCenter answers them in parallel without strain.
const ITEM_CONCURRENCY = 8;

/**
 * The inventory source on libs/vim25: one property-collector round trip per inventory type over
 * SOAP (container view create, RetrievePropertiesEx, destroy), the four types side by side, and the
 * Content Library over `/api`: the libraries, their items, each item (its type, name, modification
 * time) and each new or changed vm-template's details. One SOAP and one REST session per (vCenter,
 * user), kept between synchronisations and replaced when the credentials change.
 */
@Injectable()
export class Vim25InventorySource implements InventorySource, OnApplicationShutdown {
  private readonly vimRegistry = new VimSessionRegistry();
  private readonly restRegistry = new RestSessionRegistry();

  constructor(@Optional() @Inject(INVENTORY_METER) private readonly meter?: InventoryMeter) {}

  async read(connection: VcenterConnection, options: InventoryReadOptions): Promise<InventorySnapshot> {
    const tls = {
      url: connection.url,
      verifySsl: connection.verifySsl,
      caPem: connection.caPem,
      addressCheck: connection.addressCheck,
      connectTimeoutMs: connection.connectTimeoutMs,
    };
    const credentials = { ...tls, username: connection.username, password: connection.password };
    const call = { signal: options.signal, timeoutMs: options.callTimeoutMs };
    const vim = await connectVim(
      { ...credentials, timeoutMs: options.callTimeoutMs },
      call,
      this.vimRegistry,
    );
    const rest = await connectRest(
      { ...credentials, timeoutMs: options.callTimeoutMs },
      call,
      this.restRegistry,
    );
    const [clusters, networks, datastores, folders, templates] = await Promise.all([
      this.timed('clusters', () => readClusters(this.soapFor(vim, 'clusters'), call)),
      this.timed('networks', () => readNetworks(this.soapFor(vim, 'networks'), call)),
      this.timed('datastores', () => readDatastores(this.soapFor(vim, 'datastores'), call)),
      this.timed('folders', () => readVmFolders(this.soapFor(vim, 'folders'), call)),
      this.timed('templates', () => this.readTemplates(this.restFor(rest), call, options.knownTemplates)),
    ]);
    return {
      clusters: clusters.map((c) => ({ backendId: c.ref.value, name: c.name })),
      networks: networks.map((n) => ({
        backendId: n.ref.value,
        name: n.name,
        kind: n.kind,
        uplink: n.kind === 'distributed' && n.uplink,
      })),
      datastores: datastores.map((d) => ({
        backendId: d.ref.value,
        name: d.name,
        type: d.type,
        capacityBytes: d.capacity,
        freeSpaceBytes: d.freeSpace,
      })),
      folders: folders.map((f) => ({ backendId: f.ref.value, name: f.name })),
      templates: templates.items,
      templateErrors: templates.errors,
    };
  }

  /** Logs every session out at shutdown. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.vimRegistry.closeAll(), this.restRegistry.closeAll()]);
  }

  private async readTemplates(
    rest: VapiCaller,
    call: RestCallOptions,
    known: ReadonlyMap<string, string>,
  ): Promise<{ items: RemoteTemplateItem[]; errors: RemoteReadError[] }> {
    const libraries = await listLibraries(rest, call);
    const itemIds = (
      await mapLimit(libraries, ITEM_CONCURRENCY, (library) =>
        listLibraryItems(rest, library, call).catch((err: unknown) => {
          // Deleted since it was listed: it holds nothing any more.
          if (err instanceof VapiError && err.errorType === 'NOT_FOUND') return [];
          throw err;
        }),
      )
    ).flat();
    const items: RemoteTemplateItem[] = [];
    const errors: RemoteReadError[] = [];
    await mapLimit(itemIds, ITEM_CONCURRENCY, async (itemId) => {
      try {
        const item = await getLibraryItem(rest, itemId, call);
        if (item.type !== 'vm-template') return;
        items.push(await this.readTemplateItem(rest, item, call, known));
      } catch (err) {
        if (err instanceof VapiError && err.errorType === 'NOT_FOUND') return; // deleted meanwhile
        if (call.signal?.aborted) throw err;
        errors.push({ backendId: itemId, message: err instanceof Error ? err.message : String(err) });
      }
    });
    // Stable order whatever the concurrency.
    items.sort((a, b) => itemIds.indexOf(a.backendId) - itemIds.indexOf(b.backendId));
    return { items, errors };
  }

  private async readTemplateItem(
    rest: VapiCaller,
    item: LibraryItemModel,
    call: RestCallOptions,
    known: ReadonlyMap<string, string>,
  ): Promise<RemoteTemplateItem> {
    const base = {
      backendId: item.id,
      name: item.name,
      description: item.description ?? '',
      lastModified: item.last_modified_time,
    };
    if (item.last_modified_time !== undefined && known.get(item.id) === item.last_modified_time)
      return { ...base, details: { status: 'unchanged' } };
    try {
      // The raw answer: vCenter may send an empty body, null or a skeleton; the planner judges it.
      const raw = await rest.invoke(
        'GetVmTemplate',
        { method: 'GET', path: REST_PATHS.vmTemplateItem(item.id) },
        (json: unknown) => json,
        call,
      );
      return { ...base, details: { status: 'read', raw } };
    } catch (err) {
      if (err instanceof VapiError && err.errorType === 'NOT_FOUND')
        return { ...base, details: { status: 'read', raw: undefined } };
      if (call.signal?.aborted) throw err;
      return {
        ...base,
        details: { status: 'error', message: err instanceof Error ? err.message : String(err) },
      };
    }
  }

  private async timed<T>(kind: InventoryKind, read: () => Promise<T>): Promise<T> {
    const start = process.hrtime.bigint();
    try {
      return await read();
    } finally {
      this.meter?.readDone(kind, seconds(start));
    }
  }

  /** The connection's SOAP caller, counting each request for `kind` when a meter listens. */
  private soapFor(vim: VimConnection, kind: InventoryKind): VimContext {
    const meter = this.meter;
    if (meter === undefined) return vim;
    return {
      ...vim,
      caller: {
        call: async (operation, envelope, options) => {
          const start = process.hrtime.bigint();
          try {
            return await vim.caller.call(operation, envelope, options);
          } finally {
            meter.request(kind, 'soap', operation, seconds(start), 0);
          }
        },
      },
    };
  }

  /** The REST session, counting each request (wire time and decode time apart) when a meter listens. */
  private restFor(rest: VapiCaller): VapiCaller {
    const meter = this.meter;
    if (meter === undefined) return rest;
    return {
      invoke: async (operation, request, decode, options) => {
        let decodeSeconds = 0;
        const start = process.hrtime.bigint();
        try {
          return await rest.invoke(
            operation,
            request,
            (json) => {
              const t = process.hrtime.bigint();
              try {
                return decode(json);
              } finally {
                decodeSeconds = seconds(t);
              }
            },
            options,
          );
        } finally {
          meter.request('templates', 'rest', operation, seconds(start) - decodeSeconds, decodeSeconds);
        }
      },
    };
  }
}
