import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CLUSTERS_LIST,
  DATASTORES_LIST,
  FOLDERS_LIST,
  NETWORKS_LIST,
  TEMPLATES_LIST,
  type ClusterView,
  type DatastoreView,
  type FolderView,
  type NetworkView,
  type Page,
  type RequestReply,
  type TemplateView,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { InventoryQueryService } from '../services/inventory-query.service';

/** `/api/vmware-templates|clusters|networks|datastores|folders/` over core NATS, for the gateway. */
@Controller()
export class InventoryController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly inventory: InventoryQueryService,
  ) {}

  @MessagePattern(TEMPLATES_LIST.pattern)
  async onTemplates(@Payload() payload: unknown): Promise<RequestReply<Page<TemplateView>>> {
    return this.guard.handle(TEMPLATES_LIST, payload, (request) => this.inventory.templates(request.query));
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
}
