import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  refuse,
  uuidOfHyperlink,
  type OperationRequest,
  type Page,
  type PROJECT_OPERATIONS,
  type ProjectView,
  type RequestReply,
} from '@app/contracts';
import {
  canSeeCustomer,
  canSeeProject,
  decideProject,
  decideProjectCreate,
  projectScope,
  type Principal,
} from '../domain/access-policy';
import { toProjectView } from '../dtos/identity.mapper';
import type { ProjectEntity } from '../entities/project.entity';
import { CustomerRepository } from '../repositories/customer.repository';
import { ProjectRepository } from '../repositories/project.repository';
import { denied, NOT_FOUND } from './request-guard.service';
import { ReferencedRowError } from '../domain/persistence-errors';
import type { ProjectRecord } from '../domain/records';

type Ops = typeof PROJECT_OPERATIONS;

@Injectable()
export class ProjectService {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly customers: CustomerRepository,
  ) {}

  async list(
    request: OperationRequest<Ops['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<ProjectView>>> {
    const { page, page_size, name, customer_uuid } = request.query;
    // The scope below would find nothing in a customer the caller cannot see; said outright, so the
    // rule does not hang on the SQL: such a filter answers as one on a customer that does not exist.
    if (customer_uuid !== undefined && !canSeeCustomer(principal, customer_uuid))
      return ok({ items: [], count: 0 });
    const found = await this.projects.list(
      projectScope(principal),
      { name, customerUuid: customer_uuid },
      { page, pageSize: page_size },
    );
    return ok({ items: await this.views(found.items), count: found.count });
  }

  async get(request: OperationRequest<Ops['get']>, principal: Principal): Promise<RequestReply<ProjectView>> {
    const project = await this.visible(request.params.uuid, principal);
    return project ? ok((await this.views([project]))[0]) : refuse(404, NOT_FOUND);
  }

  async create(
    request: OperationRequest<Ops['create']>,
    principal: Principal,
  ): Promise<RequestReply<ProjectView>> {
    const customer = await this.customers.getById(uuidOfHyperlink(request.body.customer));
    const decision = customer ? decideProjectCreate(principal, customer.uuid) : 'hide';
    // A customer the caller may not see does not exist for them: the link is invalid, as Waldur answers.
    if (!customer || decision === 'hide')
      return invalidField('customer', 'Invalid hyperlink - Object does not exist.');
    if (decision !== 'allow') return denied(decision);
    const project = await this.projects.create({
      uuid: randomUUID(),
      customerUuid: customer.uuid,
      name: request.body.name,
      description: request.body.description,
    });
    return ok(toProjectView(project, customer.name));
  }

  async update(
    request: OperationRequest<Ops['update']>,
    principal: Principal,
  ): Promise<RequestReply<ProjectView>> {
    const project = await this.projects.getById(request.params.uuid);
    const decision = project ? decideProject(principal, project, 'update') : 'hide';
    if (decision !== 'allow') return denied(decision);
    await this.projects.update(request.params.uuid, request.body);
    const updated = await this.projects.getById(request.params.uuid);
    return updated ? ok((await this.views([updated]))[0]) : refuse(404, NOT_FOUND);
  }

  async delete(request: OperationRequest<Ops['delete']>, principal: Principal): Promise<RequestReply<null>> {
    const project = await this.projects.getById(request.params.uuid);
    const decision = project ? decideProject(principal, project, 'delete') : 'hide';
    if (decision !== 'allow') return denied(decision);
    try {
      return (await this.projects.delete(request.params.uuid)) ? ok(null) : refuse(404, NOT_FOUND);
    } catch (error) {
      // Its orders and resources keep the project: Waldur refuses to delete a project with resources.
      if (error instanceof ReferencedRowError)
        return refuse(409, 'The project has orders or resources: it cannot be deleted.');
      throw error;
    }
  }

  /** The project, for other modules (no visibility check: the caller has made its own). */
  async getById(uuid: string): Promise<ProjectRecord | null> {
    return this.projects.getById(uuid);
  }

  /** The project when it exists and the caller may see it. */
  async visible(uuid: string, principal: Principal): Promise<ProjectRecord | null> {
    const project = await this.projects.getById(uuid);
    return project && canSeeProject(principal, project) ? project : null;
  }

  private async views(projects: ProjectEntity[]): Promise<ProjectView[]> {
    const names = await this.projects.customerNames(projects.map((project) => project.customerUuid));
    return projects.map((project) => toProjectView(project, names.get(project.customerUuid) ?? ''));
  }
}
