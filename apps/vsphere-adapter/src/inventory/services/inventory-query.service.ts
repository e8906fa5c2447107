import { Injectable } from '@nestjs/common';
import {
  canSeeCustomer,
  customerScope,
  ok,
  principalOfContext,
  refuse,
  type AssignmentKind,
  type ClusterView,
  type InventoryObjectKind,
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
import { NOT_FOUND } from '../../services/request-guard.service';
import { canSeeOfferingInventory } from '../domain/offering-visibility';
import {
  InventoryQueryRepository,
  type InventoryFilters,
  type Visibility,
} from '../repositories/inventory-query.repository';
import { OfferingStateRepository } from '../repositories/offering-state.repository';

const TO_VIEW = {
  clusters: toClusterView,
  networks: toNetworkView,
  datastores: toDatastoreView,
  folders: toFolderView,
} as const;

/** The list query every inventory list takes (already validated). */
export interface InventoryListQuery {
  page: number;
  page_size: number;
  offering_uuid?: string;
  customer_uuid?: string;
  settings_uuid?: string;
  name?: string;
}

/**
 * What the caller may see: with `customer_uuid`, that organisation's view if the caller belongs to
 * it (staff: any), nothing otherwise; without it, staff see all and others the union of their
 * organisations' views. Belonging is the shared policy's `canSeeCustomer`: owning the customer or
 * holding a role in one of its projects. Pure.
 */
export function visibilityOf(caller: VsphereCaller, customerUuid: string | undefined): Visibility {
  const principal = principalOfContext(caller);
  if (customerUuid !== undefined) {
    const member = canSeeCustomer(principal, customerUuid);
    return { all: false, customerUuids: member ? [customerUuid] : [] };
  }
  return customerScope(principal);
}

/**
 * The inventory lists of `/api/vmware-*`: templates for all, the rest as assigned (or defaulted);
 * only of offerings the caller may see (a Draft one is its provider's and staff's).
 */
@Injectable()
export class InventoryQueryService {
  constructor(
    private readonly inventory: InventoryQueryRepository,
    private readonly offerings: OfferingStateRepository,
  ) {}

  async templates(
    caller: VsphereCaller,
    query: InventoryListQuery,
  ): Promise<RequestReply<Page<TemplateView>>> {
    const found = await this.inventory.listTemplates(await this.filters(caller, query), this.page(query));
    return ok({ items: found.items.map(toTemplateView), count: found.count });
  }

  /** One template, as the list would show it to the caller; 404 when the caller could not list it. */
  async template(caller: VsphereCaller, uuid: string): Promise<RequestReply<TemplateView>> {
    const found = await this.inventory.getTemplate(uuid);
    if (found === null || !(await this.canSee(caller, found.offeringUuid))) return refuse(404, NOT_FOUND);
    return ok(toTemplateView(found));
  }

  async clusters(caller: VsphereCaller, query: InventoryListQuery): Promise<RequestReply<Page<ClusterView>>> {
    const found = await this.inventory.listObjects(
      'clusters',
      visibilityOf(caller, query.customer_uuid),
      await this.filters(caller, query),
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
      await this.filters(caller, query),
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
      await this.filters(caller, query),
      this.page(query),
    );
    return ok({ items: found.items.map(toDatastoreView), count: found.count });
  }

  async folders(caller: VsphereCaller, query: InventoryListQuery): Promise<RequestReply<Page<FolderView>>> {
    const found = await this.inventory.listObjects(
      'folders',
      visibilityOf(caller, query.customer_uuid),
      await this.filters(caller, query),
      this.page(query),
    );
    return ok({ items: found.items.map(toFolderView), count: found.count });
  }

  /**
   * One cluster, network, datastore or folder, answered only when the caller's own list of that
   * kind holds it (a network: for new VMs or as assigned for existing ones, where a port may sit).
   */
  async object(
    kind: InventoryObjectKind,
    caller: VsphereCaller,
    uuid: string,
  ): Promise<RequestReply<ClusterView | NetworkView | DatastoreView>> /* FolderView is ClusterView */ {
    const lists: AssignmentKind[] = kind === 'networks' ? ['networks', 'existing-vm-networks'] : [kind];
    const filters = { ...(await this.filters(caller, { page: 1, page_size: 1 })), uuid };
    for (const list of lists) {
      const found = await this.inventory.listObjects(list, visibilityOf(caller, undefined), filters, {
        page: 1,
        pageSize: 1,
      });
      const [entity] = found.items;
      if (entity !== undefined) return ok(TO_VIEW[kind](entity as never));
    }
    return refuse(404, NOT_FOUND);
  }

  /** Whether the caller may see this one offering's inventory (its limits, say). */
  async canSee(caller: VsphereCaller, offeringUuid: string): Promise<boolean> {
    const visible = await this.visibleOfferings(caller, offeringUuid);
    return visible === undefined || visible.includes(offeringUuid);
  }

  /** `settings_uuid` names the offering too (its integration is its service settings): both must agree. */
  private async filters(caller: VsphereCaller, query: InventoryListQuery): Promise<InventoryFilters> {
    const { offering_uuid, settings_uuid } = query;
    if (offering_uuid !== undefined && settings_uuid !== undefined && offering_uuid !== settings_uuid)
      return { offeringUuids: [] };
    const offeringUuid = offering_uuid ?? settings_uuid;
    return {
      offeringUuid,
      offeringUuids: await this.visibleOfferings(caller, offeringUuid),
      name: query.name,
    };
  }

  /** The offerings whose inventory the caller may see; undefined for staff (all of them). */
  private async visibleOfferings(
    caller: VsphereCaller,
    offeringUuid?: string,
  ): Promise<string[] | undefined> {
    if (caller.is_staff) return undefined;
    const owned = caller.owned_customer_uuids;
    const offerings = await this.offerings.integrated(offeringUuid);
    return offerings
      .filter((offering) => canSeeOfferingInventory(caller.is_staff, owned, offering))
      .map((offering) => offering.offeringUuid);
  }

  private page(query: InventoryListQuery) {
    return { page: query.page, pageSize: query.page_size };
  }
}
