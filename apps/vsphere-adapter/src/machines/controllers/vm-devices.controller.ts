import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  DISK_DELETE,
  DISK_EXTEND,
  DISK_GET,
  DISK_LIST,
  PORT_DELETE,
  PORT_GET,
  PORT_LIST,
  VM_CREATE_DISK,
  VM_CREATE_PORT,
  type DiskView,
  type Page,
  type PortView,
  type RequestReply,
  type VmOperationView,
} from '@app/contracts';
import { IdempotentRequests } from '@app/messaging';
import { RequestGuard } from '../../services/request-guard.service';
import { VmDevicesService } from '../services/vm-devices.service';

/**
 * `/api/vmware-disks/`, `/api/vmware-ports/` and a VM's `create_disk` / `create_port`, over core
 * NATS; the two creates honour the gateway's Idempotency-Key.
 */
@Controller()
export class VmDevicesController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly devices: VmDevicesService,
    private readonly idempotency: IdempotentRequests,
  ) {}

  @MessagePattern(VM_CREATE_DISK.pattern)
  async onCreateDisk(@Payload() payload: unknown): Promise<RequestReply<DiskView>> {
    return this.guard.handle(VM_CREATE_DISK, payload, (r) =>
      this.idempotency.run(VM_CREATE_DISK.pattern, r, { userUuid: r.caller.user_uuid }, (store) =>
        this.devices.createDisk(r.caller, r.params.uuid, r.body.size, store, r.meta?.deadline),
      ),
    );
  }

  @MessagePattern(VM_CREATE_PORT.pattern)
  async onCreatePort(@Payload() payload: unknown): Promise<RequestReply<PortView>> {
    return this.guard.handle(VM_CREATE_PORT, payload, (r) =>
      this.idempotency.run(VM_CREATE_PORT.pattern, r, { userUuid: r.caller.user_uuid }, (store) =>
        this.devices.createPort(r.caller, r.params.uuid, r.body.network, store, r.meta?.deadline),
      ),
    );
  }

  @MessagePattern(DISK_LIST.pattern)
  async onDiskList(@Payload() payload: unknown): Promise<RequestReply<Page<DiskView>>> {
    return this.guard.handle(DISK_LIST, payload, (r) => this.devices.listDisks(r.caller, r.query));
  }

  @MessagePattern(DISK_GET.pattern)
  async onDiskGet(@Payload() payload: unknown): Promise<RequestReply<DiskView>> {
    return this.guard.handle(DISK_GET, payload, (r) => this.devices.getDisk(r.caller, r.params.uuid));
  }

  @MessagePattern(DISK_EXTEND.pattern)
  async onDiskExtend(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(DISK_EXTEND, payload, (r) =>
      this.devices.extendDisk(r.caller, r.params.uuid, r.body.size),
    );
  }

  /** 202 with the operation, or null (the gateway's 204) for a row vCenter never made. */
  @MessagePattern(DISK_DELETE.pattern)
  async onDiskDelete(@Payload() payload: unknown): Promise<RequestReply<VmOperationView | null>> {
    return this.guard.handle(DISK_DELETE, payload, (r) =>
      this.devices.deleteDevice(r.caller, 'disk', r.params.uuid),
    );
  }

  @MessagePattern(PORT_LIST.pattern)
  async onPortList(@Payload() payload: unknown): Promise<RequestReply<Page<PortView>>> {
    return this.guard.handle(PORT_LIST, payload, (r) => this.devices.listPorts(r.caller, r.query));
  }

  @MessagePattern(PORT_GET.pattern)
  async onPortGet(@Payload() payload: unknown): Promise<RequestReply<PortView>> {
    return this.guard.handle(PORT_GET, payload, (r) => this.devices.getPort(r.caller, r.params.uuid));
  }

  @MessagePattern(PORT_DELETE.pattern)
  async onPortDelete(@Payload() payload: unknown): Promise<RequestReply<VmOperationView | null>> {
    return this.guard.handle(PORT_DELETE, payload, (r) =>
      this.devices.deleteDevice(r.caller, 'port', r.params.uuid),
    );
  }
}
