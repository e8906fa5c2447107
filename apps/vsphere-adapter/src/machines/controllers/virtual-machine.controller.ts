import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  VM_GET,
  VM_LIST,
  VM_POWER_OPERATIONS,
  type Page,
  type PowerAction,
  type PowerOperationView,
  type RequestReply,
  type VirtualMachineView,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { VmPowerService } from '../services/vm-power.service';

/** `/api/vmware-virtual-machine/` and its power actions over core NATS, for the gateway. */
@Controller()
export class VirtualMachineController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly vms: VmPowerService,
  ) {}

  @MessagePattern(VM_LIST.pattern)
  async onList(@Payload() payload: unknown): Promise<RequestReply<Page<VirtualMachineView>>> {
    return this.guard.handle(VM_LIST, payload, (r) => this.vms.list(r.caller, r.query));
  }

  @MessagePattern(VM_GET.pattern)
  async onGet(@Payload() payload: unknown): Promise<RequestReply<VirtualMachineView>> {
    return this.guard.handle(VM_GET, payload, (r) => this.vms.get(r.caller, r.params.uuid));
  }

  @MessagePattern(VM_POWER_OPERATIONS.start.pattern)
  async onStart(@Payload() payload: unknown): Promise<RequestReply<PowerOperationView>> {
    return this.power('start', payload);
  }

  @MessagePattern(VM_POWER_OPERATIONS.stop.pattern)
  async onStop(@Payload() payload: unknown): Promise<RequestReply<PowerOperationView>> {
    return this.power('stop', payload);
  }

  @MessagePattern(VM_POWER_OPERATIONS.reset.pattern)
  async onReset(@Payload() payload: unknown): Promise<RequestReply<PowerOperationView>> {
    return this.power('reset', payload);
  }

  @MessagePattern(VM_POWER_OPERATIONS.suspend.pattern)
  async onSuspend(@Payload() payload: unknown): Promise<RequestReply<PowerOperationView>> {
    return this.power('suspend', payload);
  }

  private power(action: PowerAction, payload: unknown): Promise<RequestReply<PowerOperationView>> {
    return this.guard.handle(VM_POWER_OPERATIONS[action], payload, (r) =>
      this.vms.power(r.caller, r.params.uuid, action),
    );
  }
}
