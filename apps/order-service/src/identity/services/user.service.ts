import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  refuse,
  type OperationRequest,
  type Page,
  type RequestReply,
  type USER_OPERATIONS,
  type UserView,
} from '@app/contracts';
import {
  canSeeCustomer,
  canSeeUser,
  decideUser,
  decideUserCreate,
  userScope,
  type Principal,
} from '../domain/access-policy';
import { DuplicateRowError } from '../domain/persistence-errors';
import { toUserView } from '../dtos/identity.mapper';
import { AccessEvents } from '../repositories/access-events.repository';
import { UnitOfWork } from '@app/messaging';
import { UserRepository } from '../repositories/user.repository';
import { AuthService } from './auth.service';
import { PrincipalService } from './principal.service';
import { ProjectService } from './project.service';
import { denied, NOT_FOUND } from './request-guard.service';

type Ops = typeof USER_OPERATIONS;
const USERNAME_TAKEN = 'A user with that username already exists.';
const EMPTY: Page<UserView> = { items: [], count: 0 };

@Injectable()
export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly principals: PrincipalService,
    private readonly projects: ProjectService,
    private readonly uow: UnitOfWork,
    private readonly events: AccessEvents,
    private readonly auth: AuthService,
  ) {}

  async list(
    request: OperationRequest<Ops['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<UserView>>> {
    const { page, page_size, username, is_staff, customer_uuid, project_uuid } = request.query;
    // A filter on an organisation or project the caller cannot see answers as one on nothing: an
    // empty list, whether it exists or not (the users it would match may be visible through others).
    if (customer_uuid !== undefined && !canSeeCustomer(principal, customer_uuid)) return ok(EMPTY);
    if (project_uuid !== undefined && !(await this.projects.visible(project_uuid, principal)))
      return ok(EMPTY);
    const found = await this.users.list(
      userScope(principal),
      { username, isStaff: is_staff, customerUuid: customer_uuid, projectUuid: project_uuid },
      { page, pageSize: page_size },
    );
    return ok({ items: found.items.map(toUserView), count: found.count });
  }

  async me(principal: Principal): Promise<RequestReply<UserView>> {
    const user = await this.users.getById(principal.userUuid);
    return user ? ok(toUserView(user)) : refuse(404, NOT_FOUND);
  }

  async get(request: OperationRequest<Ops['get']>, principal: Principal): Promise<RequestReply<UserView>> {
    const user = await this.users.getById(request.params.uuid);
    if (!user || !canSeeUser(principal, await this.principals.rolesOf(user.uuid)))
      return refuse(404, NOT_FOUND);
    return ok(toUserView(user));
  }

  async create(
    request: OperationRequest<Ops['create']>,
    principal: Principal,
  ): Promise<RequestReply<UserView>> {
    const decision = decideUserCreate(principal);
    if (decision !== 'allow') return denied(decision);
    const { username, full_name, email, is_staff, is_active } = request.body;
    if (await this.users.getByUsername(username)) return invalidField('username', USERNAME_TAKEN);
    try {
      const user = await this.users.create({
        uuid: randomUUID(),
        username,
        fullName: full_name,
        email,
        isStaff: is_staff,
        isActive: is_active,
      });
      return ok(toUserView(user));
    } catch (error) {
      if (error instanceof DuplicateRowError) return invalidField('username', USERNAME_TAKEN);
      throw error;
    }
  }

  async update(
    request: OperationRequest<Ops['update']>,
    principal: Principal,
  ): Promise<RequestReply<UserView>> {
    const { full_name, email, is_staff, is_active } = request.body;
    const privileged = is_staff !== undefined || is_active !== undefined;
    const decision = await this.decide(
      request.params.uuid,
      principal,
      privileged ? 'update-privileges' : 'update',
    );
    if (decision !== 'allow') return denied(decision);
    await this.uow.run(async (tx) => {
      const changes = {
        ...(full_name !== undefined && { fullName: full_name }),
        ...(email !== undefined && { email }),
        ...(is_staff !== undefined && { isStaff: is_staff }),
        ...(is_active !== undefined && { isActive: is_active }),
      };
      await this.users.update(request.params.uuid, changes, tx);
      // A deactivated user's tokens die with it: reactivating them later does not revive old sessions.
      if (is_active === false) await this.auth.revokeAllOf(request.params.uuid, tx);
      // Staff sees everything, a deactivated user nothing: their SSE streams are checked again.
      if (privileged) await this.events.accessChanged(tx, [request.params.uuid]);
    });
    if (privileged) this.events.wake();
    const user = await this.users.getById(request.params.uuid);
    return user ? ok(toUserView(user)) : refuse(404, NOT_FOUND);
  }

  async delete(request: OperationRequest<Ops['delete']>, principal: Principal): Promise<RequestReply<null>> {
    const decision = await this.decide(request.params.uuid, principal, 'delete');
    if (decision !== 'allow') return denied(decision);
    const deleted = await this.uow.run(async (tx) => {
      const gone = await this.users.delete(request.params.uuid, tx);
      if (gone) await this.events.accessChanged(tx, [request.params.uuid]);
      return gone;
    });
    if (!deleted) return refuse(404, NOT_FOUND);
    this.events.wake();
    return ok(null);
  }

  private async decide(uuid: string, principal: Principal, action: Parameters<typeof decideUser>[2]) {
    const user = await this.users.getById(uuid);
    return user ? decideUser(principal, await this.principals.rolesOf(user.uuid), action) : 'hide';
  }
}
