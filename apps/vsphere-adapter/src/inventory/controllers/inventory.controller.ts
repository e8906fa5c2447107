import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CLUSTERS_LIST,
  DATASTORES_LIST,
  FOLDERS_LIST,
  INVENTORY_OBJECT_GET,
  NETWORKS_LIST,
  TEMPLATE_GET,
  TEMPLATES_LIST,
  type ClusterView,
  type DatastoreView,
  type FolderView,
  type InventoryObjectKind,
  type NetworkView,
  type Page,
  type RequestReply,
  type TemplateView,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { InventoryQueryService } from '../services/inventory-query.service';

/** `/api/vmware-templates|clusters|networks|datastores|folders/` and `{uuid}/` over core NATS, for the gateway. */
@Controller()
export class InventoryController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly inventory: InventoryQueryService,
  ) {}

  @MessagePattern(TEMPLATES_LIST.pattern)
  async onTemplates(@Payload() payload: unknown): Promise<RequestReply<Page<TemplateView>>> {
    return this.guard.handle(TEMPLATES_LIST, payload, (r) => this.inventory.templates(r.caller, r.query));
  }

  @MessagePattern(TEMPLATE_GET.pattern)
  async onTemplate(@Payload() payload: unknown): Promise<RequestReply<TemplateView>> {
    return this.guard.handle(TEMPLATE_GET, payload, (r) => this.inventory.template(r.caller, r.params.uuid));
  }

  @MessagePattern(INVENTORY_OBJECT_GET.clusters.pattern)
  async onCluster(@Payload() payload: unknown): Promise<RequestReply<unknown>> {
    return this.object('clusters', payload);
  }

  @MessagePattern(INVENTORY_OBJECT_GET.networks.pattern)
  async onNetwork(@Payload() payload: unknown): Promise<RequestReply<unknown>> {
    return this.object('networks', payload);
  }

  @MessagePattern(INVENTORY_OBJECT_GET.datastores.pattern)
  async onDatastore(@Payload() payload: unknown): Promise<RequestReply<unknown>> {
    return this.object('datastores', payload);
  }

  @MessagePattern(INVENTORY_OBJECT_GET.folders.pattern)
  async onFolder(@Payload() payload: unknown): Promise<RequestReply<unknown>> {
    return this.object('folders', payload);
  }

  @MessagePattern(CLUSTERS_LIST.pattern)
  async onClusters(@Payload() payload: unknown): Promise<RequestReply<Page<ClusterView>>> {
    return this.guard.handle(CLUSTERS_LIST, payload, (r) => this.inventory.clusters(r.caller, r.query));
  }

  @MessagePattern(NETWORKS_LIST.pattern)
  async onNetworks(@Payload() payload: unknown): Promise<RequestReply<Page<NetworkView>>> {
    return this.guard.handle(NETWORKS_LIST, payload, (r) => this.inventory.networks(r.caller, r.query));
  }

  @MessagePattern(DATASTORES_LIST.pattern)
  async onDatastores(@Payload() payload: unknown): Promise<RequestReply<Page<DatastoreView>>> {
    return this.guard.handle(DATASTORES_LIST, payload, (r) => this.inventory.datastores(r.caller, r.query));
  }

  @MessagePattern(FOLDERS_LIST.pattern)
  async onFolders(@Payload() payload: unknown): Promise<RequestReply<Page<FolderView>>> {
    return this.guard.handle(FOLDERS_LIST, payload, (r) => this.inventory.folders(r.caller, r.query));
  }

  private object(kind: InventoryObjectKind, payload: unknown): Promise<RequestReply<unknown>> {
    return this.guard.handle(INVENTORY_OBJECT_GET[kind], payload, (r) =>
      this.inventory.object(kind, r.caller, r.params.uuid),
    );
  }
}
