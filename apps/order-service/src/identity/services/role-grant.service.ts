import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  refuse,
  uuidOfHyperlink,
  type CUSTOMER_OPERATIONS,
  type OperationRequest,
  type Page,
  type PROJECT_OPERATIONS,
  type RequestReply,
  type RoleGrantView,
} from '@app/contracts';
import {
  canSeeCustomer,
  canSeeUser,
  decideCustomer,
  decideProjectGrant,
  type Decision,
  type Principal,
} from '../domain/access-policy';
import { DuplicateRowError } from '../domain/persistence-errors';
import { toGrantView } from '../dtos/identity.mapper';
import { CustomerRepository } from '../repositories/customer.repository';
import { ProjectRepository } from '../repositories/project.repository';
import { AccessEvents } from '../repositories/access-events.repository';
import { RoleGrantRepository } from '../repositories/role-grant.repository';
import { UnitOfWork } from '@app/messaging';
import { UserRepository } from '../repositories/user.repository';
import { PrincipalService } from './principal.service';
import { ProjectService } from './project.service';
import { denied, NOT_FOUND } from './request-guard.service';

type CustomerOps = typeof CUSTOMER_OPERATIONS;
type ProjectOps = typeof PROJECT_OPERATIONS;
type GrantRequest = OperationRequest<CustomerOps['addUser']> | OperationRequest<ProjectOps['addUser']>;
type Scope = { kind: 'customer'; uuid: string } | { kind: 'project'; uuid: string };

const ALREADY_GRANTED = 'User already has role within this scope.';
const NOT_GRANTED = 'User does not have role within this scope.';

/** Waldur's `add_user` / `delete_user` / `list_users` on customers and projects. */
@Injectable()
export class RoleGrantService {
  constructor(
    private readonly grants: RoleGrantRepository,
    private readonly users: UserRepository,
    private readonly customers: CustomerRepository,
    private readonly projects: ProjectRepository,
    private readonly projectService: ProjectService,
    private readonly principals: PrincipalService,
    private readonly uow: UnitOfWork,
    private readonly events: AccessEvents,
  ) {}

  async listCustomerGrants(
    request: OperationRequest<CustomerOps['listUsers']>,
    principal: Principal,
  ): Promise<RequestReply<Page<RoleGrantView>>> {
    const customer = await this.customers.getById(request.params.uuid);
    if (!customer || !canSeeCustomer(principal, customer.uuid)) return refuse(404, NOT_FOUND);
    return this.list({ kind: 'customer', uuid: customer.uuid }, request.query);
  }

  async listProjectGrants(
    request: OperationRequest<ProjectOps['listUsers']>,
    principal: Principal,
  ): Promise<RequestReply<Page<RoleGrantView>>> {
    const project = await this.projectService.visible(request.params.uuid, principal);
    if (!project) return refuse(404, NOT_FOUND);
    return this.list({ kind: 'project', uuid: project.uuid }, request.query);
  }

  async grant(
    kind: Scope['kind'],
    request: GrantRequest,
    principal: Principal,
  ): Promise<RequestReply<RoleGrantView>> {
    const decision = await this.decide(kind, request, principal);
    if (decision !== 'allow') return denied(decision);
    const user = await this.users.getById(uuidOfHyperlink(request.body.user));
    // A user the caller may not see does not exist for them: granting a role would otherwise show
    // their name and email in this answer, and make them visible from then on.
    if (!user || !canSeeUser(principal, await this.principals.rolesOf(user.uuid)))
      return invalidField('user', 'Invalid hyperlink - Object does not exist.');
    const scope = { kind, uuid: request.params.uuid };
    const uuid = randomUUID();
    try {
      await this.uow.run(async (tx) => {
        await this.grants.add(scope, { uuid, userUuid: user.uuid, role: request.body.role }, tx);
        await this.events.accessChanged(tx, [user.uuid]);
      });
    } catch (error) {
      if (error instanceof DuplicateRowError) return refuse(409, ALREADY_GRANTED);
      throw error;
    }
    this.events.wake();
    return ok(toGrantView({ uuid, role: request.body.role, created: new Date(), user }));
  }

  async revoke(
    kind: Scope['kind'],
    request: GrantRequest,
    principal: Principal,
  ): Promise<RequestReply<null>> {
    const decision = await this.decide(kind, request, principal);
    if (decision !== 'allow') return denied(decision);
    const userUuid = uuidOfHyperlink(request.body.user);
    // The user's SSE streams must stop showing what the role showed: the gateway checks them again.
    const removed = await this.uow.run(async (tx) => {
      const gone = await this.grants.remove(
        { kind, uuid: request.params.uuid },
        userUuid,
        request.body.role,
        tx,
      );
      if (gone) await this.events.accessChanged(tx, [userUuid]);
      return gone;
    });
    if (!removed) return refuse(404, NOT_GRANTED);
    this.events.wake();
    return ok(null);
  }

  private async decide(kind: Scope['kind'], request: GrantRequest, principal: Principal): Promise<Decision> {
    if (kind === 'customer') {
      const customer = await this.customers.getById(request.params.uuid);
      return customer ? decideCustomer(principal, customer.uuid, 'manage-roles') : 'hide';
    }
    const project = await this.projects.getById(request.params.uuid);
    if (!project) return 'hide';
    return decideProjectGrant(
      principal,
      project,
      request.body.role as Parameters<typeof decideProjectGrant>[2],
    );
  }

  private async list(
    scope: Scope,
    query: { page: number; page_size: number },
  ): Promise<RequestReply<Page<RoleGrantView>>> {
    const found = await this.grants.list(scope, { page: query.page, pageSize: query.page_size });
    return ok({ items: found.items.map(toGrantView), count: found.count });
  }
}
