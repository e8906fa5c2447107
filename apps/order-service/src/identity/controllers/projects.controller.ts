import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PROJECT_OPERATIONS as OPS,
  type ProjectView,
  type Page,
  type RequestReply,
  type RoleGrantView,
} from '@app/contracts';
import { ProjectService } from '../services/project.service';
import { RequestGuard } from '../services/request-guard.service';
import { RoleGrantService } from '../services/role-grant.service';

/**
 * `/api/projects/` over core NATS: the guard validates and loads the caller, one service answers.
 * `GET /api/projects/{uuid}/` is the marketplace's OwnerViewsController: one item shows its quotas
 * and their usage, which are the marketplace's.
 */
@Controller()
export class ProjectsController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly projects: ProjectService,
    private readonly grants: RoleGrantService,
  ) {}

  @MessagePattern(OPS.list.pattern)
  async onList(@Payload() payload: unknown): Promise<RequestReply<Page<ProjectView>>> {
    return this.guard.handle(OPS.list, payload, (request, caller) => this.projects.list(request, caller));
  }

  @MessagePattern(OPS.create.pattern)
  async onCreate(@Payload() payload: unknown): Promise<RequestReply<ProjectView>> {
    return this.guard.handle(OPS.create, payload, (request, caller) => this.projects.create(request, caller));
  }

  @MessagePattern(OPS.update.pattern)
  async onUpdate(@Payload() payload: unknown): Promise<RequestReply<ProjectView>> {
    return this.guard.handle(OPS.update, payload, (request, caller) => this.projects.update(request, caller));
  }

  @MessagePattern(OPS.delete.pattern)
  async onDelete(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.guard.handle(OPS.delete, payload, (request, caller) => this.projects.delete(request, caller));
  }

  @MessagePattern(OPS.listUsers.pattern)
  async onListUsers(@Payload() payload: unknown): Promise<RequestReply<Page<RoleGrantView>>> {
    return this.guard.handle(OPS.listUsers, payload, (request, caller) =>
      this.grants.listProjectGrants(request, caller),
    );
  }

  @MessagePattern(OPS.addUser.pattern)
  async onAddUser(@Payload() payload: unknown): Promise<RequestReply<RoleGrantView>> {
    return this.guard.handle(OPS.addUser, payload, (request, caller) =>
      this.grants.grant('project', request, caller),
    );
  }

  @MessagePattern(OPS.deleteUser.pattern)
  async onDeleteUser(@Payload() payload: unknown): Promise<RequestReply<null>> {
    return this.guard.handle(OPS.deleteUser, payload, (request, caller) =>
      this.grants.revoke('project', request, caller),
    );
  }
}
