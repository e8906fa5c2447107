import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type CUSTOMER_OPERATIONS,
  type CustomerView,
  type OperationRequest,
  type Page,
  type RequestReply,
} from '@app/contracts';
import {
  customerScope,
  decideCustomer,
  decideCustomerCreate,
  canSeeCustomer,
  type Principal,
} from '../domain/access-policy';
import { ReferencedRowError } from '../domain/persistence-errors';
import type { CustomerRecord } from '../domain/records';
import { toCustomerView } from '../dtos/identity.mapper';
import type { CustomerEntity } from '../entities/customer.entity';
import { CustomerRepository, type CustomerFields } from '../repositories/customer.repository';
import { denied, NOT_FOUND } from './request-guard.service';

type Ops = typeof CUSTOMER_OPERATIONS;
const HAS_DEPENDANTS = 'Cannot delete organization with existing projects or offerings.';

@Injectable()
export class CustomerService {
  constructor(private readonly customers: CustomerRepository) {}

  async list(
    request: OperationRequest<Ops['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<CustomerView>>> {
    const { page, page_size, name } = request.query;
    const found = await this.customers.list(
      customerScope(principal),
      { name },
      { page, pageSize: page_size },
    );
    return ok({ items: await this.views(found.items), count: found.count });
  }

  async get(
    request: OperationRequest<Ops['get']>,
    principal: Principal,
  ): Promise<RequestReply<CustomerView>> {
    const customer = await this.customers.getById(request.params.uuid);
    if (!customer || !canSeeCustomer(principal, customer.uuid)) return refuse(404, NOT_FOUND);
    return ok(await this.view(customer));
  }

  async create(
    request: OperationRequest<Ops['create']>,
    principal: Principal,
  ): Promise<RequestReply<CustomerView>> {
    const decision = decideCustomerCreate(principal);
    if (decision !== 'allow') return denied(decision);
    const customer = await this.customers.create({ uuid: randomUUID(), ...toFields(request.body) } as Omit<
      CustomerEntity,
      'created'
    >);
    return ok(toCustomerView(customer, false));
  }

  async update(
    request: OperationRequest<Ops['update']>,
    principal: Principal,
  ): Promise<RequestReply<CustomerView>> {
    const decision = await this.decide(request.params.uuid, principal, 'update');
    if (decision !== 'allow') return denied(decision);
    await this.customers.update(request.params.uuid, toFields(request.body));
    const customer = await this.customers.getById(request.params.uuid);
    return customer ? ok(await this.view(customer)) : refuse(404, NOT_FOUND);
  }

  async delete(request: OperationRequest<Ops['delete']>, principal: Principal): Promise<RequestReply<null>> {
    const decision = await this.decide(request.params.uuid, principal, 'delete');
    if (decision !== 'allow') return denied(decision);
    if ((await this.customers.countProjects(request.params.uuid)) > 0) return refuse(409, HAS_DEPENDANTS);
    try {
      return (await this.customers.delete(request.params.uuid)) ? ok(null) : refuse(404, NOT_FOUND);
    } catch (error) {
      // A project or offering created since the check above.
      if (error instanceof ReferencedRowError) return refuse(409, HAS_DEPENDANTS);
      throw error;
    }
  }

  /** The customer, for other modules (no visibility check: the caller has made its own). */
  async getById(uuid: string): Promise<CustomerRecord | null> {
    return this.customers.getById(uuid);
  }

  /** The names of these customers, in one query (missing ones are left out). */
  async namesOf(uuids: string[]): Promise<Map<string, string>> {
    return this.customers.namesOf(uuids);
  }

  /** The policy's decision on an existing customer; a missing one is hidden like an invisible one. */
  async decide(uuid: string, principal: Principal, action: Parameters<typeof decideCustomer>[2]) {
    const customer = await this.customers.getById(uuid);
    return customer ? decideCustomer(principal, customer.uuid, action) : 'hide';
  }

  private async view(customer: CustomerEntity): Promise<CustomerView> {
    return (await this.views([customer]))[0];
  }

  private async views(customers: CustomerEntity[]): Promise<CustomerView[]> {
    const providers = await this.customers.providersAmong(customers.map((customer) => customer.uuid));
    return customers.map((customer) => toCustomerView(customer, providers.has(customer.uuid)));
  }
}

function toFields(body: Partial<OperationRequest<Ops['create']>['body']>): Partial<CustomerFields> {
  const fields: Partial<CustomerFields> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.native_name !== undefined) fields.nativeName = body.native_name;
  if (body.abbreviation !== undefined) fields.abbreviation = body.abbreviation;
  if (body.email !== undefined) fields.email = body.email;
  if (body.phone_number !== undefined) fields.phoneNumber = body.phone_number;
  if (body.description !== undefined) fields.description = body.description;
  return fields;
}
