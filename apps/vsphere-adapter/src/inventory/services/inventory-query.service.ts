import { Injectable } from '@nestjs/common';
import {
  ok,
  type ClusterView,
  type DatastoreView,
  type FolderView,
  type NetworkView,
  type Page,
  type RequestReply,
  type TemplateView,
  type VsphereCaller,
} from '@app/contracts';
import {
  toClusterView,
  toDatastoreView,
  toFolderView,
  toNetworkView,
  toTemplateView,
} from '../dtos/inventory.mapper';
import { InventoryQueryRepository, type Visibility } from '../repositories/inventory-query.repository';

/** The list query every inventory list takes (already validated). */
export interface InventoryListQuery {
  page: number;
  page_size: number;
  offering_uuid?: string;
  customer_uuid?: string;
  name?: string;
}

/**
 * What the caller may see: with `customer_uuid`, that organisation's view if the caller belongs to
 * it (staff: any), nothing otherwise; without it, staff see all and others the union of their
 * organisations' views. Pure.
 */
export function visibilityOf(caller: VsphereCaller, customerUuid: string | undefined): Visibility {
  if (customerUuid !== undefined) {
    const member = caller.is_staff || caller.customer_uuids.includes(customerUuid);
    return { all: false, customerUuids: member ? [customerUuid] : [] };
  }
  return caller.is_staff ? { all: true } : { all: false, customerUuids: caller.customer_uuids };
}

/** The inventory lists of `/api/vmware-*`: templates for all, the rest as assigned (or defaulted). */
@Injectable()
export class InventoryQueryService {
  constructor(private readonly inventory: InventoryQueryRepository) {}

  async templates(query: InventoryListQuery): Promise<RequestReply<Page<TemplateView>>> {
    const found = await this.inventory.listTemplates(this.filters(query), this.page(query));
    return ok({ items: found.items.map(toTemplateView), count: found.count });
  }

  async clusters(caller: VsphereCaller, query: InventoryListQuery): Promise<RequestReply<Page<ClusterView>>> {
    const found = await this.inventory.listObjects(
      'clusters',
      visibilityOf(caller, query.customer_uuid),
      this.filters(query),
      this.page(query),
    );
    return ok({ items: found.items.map(toClusterView), count: found.count });
  }

  async networks(
    caller: VsphereCaller,
    query: InventoryListQuery & { for_existing_vms?: boolean },
  ): Promise<RequestReply<Page<NetworkView>>> {
    const found = await this.inventory.listObjects(
      query.for_existing_vms === true ? 'existing-vm-networks' : 'networks',
      visibilityOf(caller, query.customer_uuid),
      this.filters(query),
      this.page(query),
    );
    return ok({ items: found.items.map(toNetworkView), count: found.count });
  }

  async datastores(
    caller: VsphereCaller,
    query: InventoryListQuery,
  ): Promise<RequestReply<Page<DatastoreView>>> {
    const found = await this.inventory.listObjects(
      'datastores',
      visibilityOf(caller, query.customer_uuid),
      this.filters(query),
      this.page(query),
    );
    return ok({ items: found.items.map(toDatastoreView), count: found.count });
  }

  async folders(caller: VsphereCaller, query: InventoryListQuery): Promise<RequestReply<Page<FolderView>>> {
    const found = await this.inventory.listObjects(
      'folders',
      visibilityOf(caller, query.customer_uuid),
      this.filters(query),
      this.page(query),
    );
    return ok({ items: found.items.map(toFolderView), count: found.count });
  }

  private filters(query: InventoryListQuery) {
    return { offeringUuid: query.offering_uuid, name: query.name };
  }

  private page(query: InventoryListQuery) {
    return { page: query.page, pageSize: query.page_size };
  }
}
