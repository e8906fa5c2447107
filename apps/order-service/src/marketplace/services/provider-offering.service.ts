import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  invalidField,
  OfferingChangedEvent,
  ok,
  refuse,
  uuidOfHyperlink,
  VMWARE_VM_TYPE,
  type OfferingView,
  type OperationRequest,
  type Page,
  type PROVIDER_OFFERING_OPERATIONS,
  type RequestReply,
} from '@app/contracts';
import { OutboxWriter } from '@app/messaging';
import {
  canActForProvider,
  canSeeCustomer,
  type Principal,
  CustomerService,
  FORBIDDEN,
  NOT_FOUND,
  type Transaction,
  UnitOfWork,
} from '../../identity';
import type { StoreAnswer } from './idempotent-requests.service';
import { canApply, refusalOf, TARGET_STATE, type OfferingAction } from '../domain/offering-lifecycle';
import { isProviderOffering, toOfferingView, type ProviderOffering } from '../dtos/offering.mapper';
import { INTEGRATION_PORT, type IntegrationPort, type IntegrationSummary } from '../ports/integration.port';
import { OfferingRepository } from '../repositories/offering.repository';
import { PlanRepository } from '../repositories/plan.repository';
import { OfferingViews } from './offering-views.service';

type Ops = typeof PROVIDER_OFFERING_OPERATIONS;
const NOT_A_LINK = 'Invalid hyperlink - Object does not exist.';

/**
 * A service provider's own offerings: create (Draft, with a Default plan), describe, activate,
 * pause, archive, and — for vSphere — the integration, which the vSphere adapter owns.
 * Every change is an OfferingChanged event in the same transaction.
 */
@Injectable()
export class ProviderOfferingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly writer: OutboxWriter,
    @Inject(INTEGRATION_PORT) private readonly integrations: IntegrationPort,
    private readonly offerings: OfferingRepository,
    private readonly plans: PlanRepository,
    private readonly customers: CustomerService,
    private readonly views: OfferingViews,
  ) {}

  async list(
    request: OperationRequest<Ops['list']>,
    principal: Principal,
  ): Promise<RequestReply<Page<OfferingView>>> {
    const { page, page_size, type, state, customer_uuid, name } = request.query;
    const found = await this.offerings.list(
      {
        type,
        state,
        customerUuid: customer_uuid,
        name,
        providerUuids: principal.isStaff ? undefined : [...principal.ownedCustomers],
      },
      { page, pageSize: page_size },
    );
    return ok({ items: await this.views.many(found.items, { archivedPlans: true }), count: found.count });
  }

  async get(
    request: OperationRequest<Ops['get']>,
    principal: Principal,
  ): Promise<RequestReply<OfferingView>> {
    const offering = await this.own(request.params.uuid, principal);
    return offering ? ok(await this.views.one(offering)) : refuse(404, NOT_FOUND);
  }

  /** `storeAnswer` keeps the answer under the request's Idempotency-Key, in the offering's transaction. */
  async create(
    request: OperationRequest<Ops['create']>,
    principal: Principal,
    storeAnswer?: StoreAnswer,
  ): Promise<RequestReply<OfferingView>> {
    const customerUuid = uuidOfHyperlink(request.body.customer);
    const customer = await this.customers.getById(customerUuid);
    if (!customer || !canSeeCustomer(principal, customer.uuid)) return invalidField('customer', NOT_A_LINK);
    if (!canActForProvider(principal, customer.uuid)) return refuse(403, FORBIDDEN);
    const { name, description, category, terms_of_service, type } = request.body;
    const view = await this.uow.run(async (manager) => {
      const offering = (await this.offerings.create(
        {
          uuid: randomUUID(),
          name,
          description,
          category,
          termsOfService: terms_of_service,
          type,
          customerUuid,
          state: 'Draft',
        },
        manager,
      )) as ProviderOffering;
      const plan = await this.plans.create(manager, {
        uuid: randomUUID(),
        offeringUuid: offering.uuid,
        name: 'Default',
        archived: false,
      });
      const created = toOfferingView(offering, customer.name, [{ plan, prices: {} }]);
      await this.record(manager, created, 'created');
      await storeAnswer?.(manager, ok(created));
      return created;
    });
    this.writer.wake();
    return ok(view);
  }

  async update(
    request: OperationRequest<Ops['update']>,
    principal: Principal,
  ): Promise<RequestReply<OfferingView>> {
    const { name, description, category, terms_of_service } = request.body;
    const maxDays = request.body.max_resource_termination_offset_in_days;
    return this.change(request.params.uuid, principal, 'updated', async (manager, offering) => {
      await this.offerings.update(manager, offering.uuid, {
        ...(name !== undefined && { name }),
        ...(description !== undefined && { description }),
        ...(category !== undefined && { category }),
        ...(terms_of_service !== undefined && { termsOfService: terms_of_service }),
        ...(maxDays !== undefined && { maxResourceTerminationOffsetInDays: maxDays }),
      });
      return undefined;
    });
  }

  /** activate, pause, archive. A vSphere offering is activated only while its integration is OK. */
  async move(
    action: OfferingAction,
    request: OperationRequest<Ops['activate']>,
    principal: Principal,
  ): Promise<RequestReply<OfferingView>> {
    const offering = await this.own(request.params.uuid, principal);
    if (!offering) return refuse(404, NOT_FOUND);
    if (action === 'activate' && offering.type === VMWARE_VM_TYPE) {
      const integration = await this.integrations.get(offering.uuid);
      if (integration.status === 'error' && integration.code === 503) return integration;
      const state = integration.status === 'ok' ? integration.data.state : 'not configured';
      if (state !== 'OK') {
        const reason = integration.status === 'ok' ? integration.data.error_message : '';
        return refuse(
          409,
          `The offering can be activated only while its integration is OK; it is ${state}${reason ? `: ${reason}` : '.'}`,
        );
      }
    }
    return this.change(offering.uuid, principal, TARGET_STATE[action], async (manager, locked) => {
      if (!canApply(action, locked.state)) return refuse(409, refusalOf(action, locked.state));
      await this.offerings.update(manager, locked.uuid, { state: TARGET_STATE[action] });
      return undefined;
    });
  }

  async updateIntegration(
    request: OperationRequest<Ops['updateIntegration']>,
    principal: Principal,
  ): Promise<RequestReply<IntegrationSummary>> {
    const offering = await this.vsphereOffering(request.params.uuid, principal);
    if ('status' in offering) return offering;
    return this.integrations.update(offering.uuid, offering.customerUuid, request.body.service_attributes);
  }

  async sync(
    request: OperationRequest<Ops['sync']>,
    principal: Principal,
  ): Promise<RequestReply<IntegrationSummary>> {
    const offering = await this.vsphereOffering(request.params.uuid, principal);
    if ('status' in offering) return offering;
    return this.integrations.sync(offering.uuid);
  }

  async integration(
    request: OperationRequest<Ops['integration']>,
    principal: Principal,
  ): Promise<RequestReply<IntegrationSummary>> {
    const offering = await this.vsphereOffering(request.params.uuid, principal);
    if ('status' in offering) return offering;
    return this.integrations.get(offering.uuid);
  }

  private async vsphereOffering(
    uuid: string,
    principal: Principal,
  ): Promise<ProviderOffering | RequestReply<never>> {
    const offering = await this.own(uuid, principal);
    if (!offering) return refuse(404, NOT_FOUND);
    if (offering.type !== VMWARE_VM_TYPE)
      return refuse(409, `Offering of type ${offering.type} has no integration.`);
    return offering;
  }

  /** The offering if the caller acts for its provider; otherwise it does not exist for them. */
  private async own(uuid: string, principal: Principal): Promise<ProviderOffering | null> {
    const offering = await this.offerings.getById(uuid);
    return isProviderOffering(offering) && canActForProvider(principal, offering.customerUuid)
      ? offering
      : null;
  }

  /** Locks the offering, applies `work`, stores OfferingChanged with the new view, in one transaction. */
  private async change(
    uuid: string,
    principal: Principal,
    change: string,
    work: (manager: Transaction, offering: ProviderOffering) => Promise<RequestReply<never> | undefined>,
  ): Promise<RequestReply<OfferingView>> {
    const outcome = await this.uow.run(async (manager) => {
      const offering = await this.offerings.getForUpdate(manager, uuid);
      if (!isProviderOffering(offering) || !canActForProvider(principal, offering.customerUuid))
        return refuse(404, NOT_FOUND);
      const refused = await work(manager, offering);
      if (refused) return refused;
      const changed = (await this.offerings.getById(uuid, manager)) as ProviderOffering;
      const view = await this.views.one(changed);
      await this.record(manager, view, change);
      return ok(view);
    });
    if (outcome.status === 'ok') this.writer.wake();
    return outcome;
  }

  private async record(manager: Transaction, view: OfferingView, change: string): Promise<void> {
    await this.writer.append(
      manager,
      this.writer.subjects.offeringChanged,
      OfferingChangedEvent,
      { offering: view, change },
      view.uuid,
    );
  }
}
