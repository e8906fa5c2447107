import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  VM_ACTION_OPERATIONS,
  VM_CONSOLE,
  VM_GET,
  VM_LIST,
  VM_UPDATE,
  VM_WEB_CONSOLE,
  type ConsoleView,
  type Page,
  type RequestReply,
  type VirtualMachineView,
  type VmAction,
  type VmOperationView,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { VmActionService } from '../services/vm-action.service';
import { VmQueryService } from '../services/vm-query.service';

/** `/api/vmware-virtual-machine/`, its actions, resize and consoles over core NATS, for the gateway. */
@Controller()
export class VirtualMachineController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly queries: VmQueryService,
    private readonly actions: VmActionService,
  ) {}

  @MessagePattern(VM_LIST.pattern)
  async onList(@Payload() payload: unknown): Promise<RequestReply<Page<VirtualMachineView>>> {
    return this.guard.handle(VM_LIST, payload, (r) => this.queries.list(r.caller, r.query));
  }

  @MessagePattern(VM_GET.pattern)
  async onGet(@Payload() payload: unknown): Promise<RequestReply<VirtualMachineView>> {
    return this.guard.handle(VM_GET, payload, (r) => this.queries.get(r.caller, r.params.uuid));
  }

  @MessagePattern(VM_ACTION_OPERATIONS.start.pattern)
  async onStart(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('start', payload);
  }

  @MessagePattern(VM_ACTION_OPERATIONS.stop.pattern)
  async onStop(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('stop', payload);
  }

  @MessagePattern(VM_ACTION_OPERATIONS.reset.pattern)
  async onReset(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('reset', payload);
  }

  @MessagePattern(VM_ACTION_OPERATIONS.suspend.pattern)
  async onSuspend(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('suspend', payload);
  }

  @MessagePattern(VM_ACTION_OPERATIONS.shutdown_guest.pattern)
  async onShutdownGuest(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('shutdown_guest', payload);
  }

  @MessagePattern(VM_ACTION_OPERATIONS.reboot_guest.pattern)
  async onRebootGuest(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('reboot_guest', payload);
  }

  @MessagePattern(VM_ACTION_OPERATIONS.pull.pattern)
  async onPull(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.act('pull', payload);
  }

  @MessagePattern(VM_UPDATE.pattern)
  async onUpdate(@Payload() payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(VM_UPDATE, payload, (r) => this.actions.update(r.caller, r.params.uuid, r.body));
  }

  @MessagePattern(VM_CONSOLE.pattern)
  async onConsole(@Payload() payload: unknown): Promise<RequestReply<ConsoleView>> {
    return this.guard.handle(VM_CONSOLE, payload, (r) => this.actions.console(r.caller, r.params.uuid));
  }

  @MessagePattern(VM_WEB_CONSOLE.pattern)
  async onWebConsole(@Payload() payload: unknown): Promise<RequestReply<ConsoleView>> {
    return this.guard.handle(VM_WEB_CONSOLE, payload, (r) =>
      this.actions.webConsole(r.caller, r.params.uuid),
    );
  }

  private act(action: VmAction, payload: unknown): Promise<RequestReply<VmOperationView>> {
    return this.guard.handle(VM_ACTION_OPERATIONS[action], payload, (r) =>
      this.actions.act(r.caller, r.params.uuid, action),
    );
  }
}
