import { Injectable } from '@nestjs/common';
import {
  invalidField,
  ok,
  QUOTA_NAMES,
  type CUSTOMER_OPERATIONS,
  type OperationRequest,
  type PROJECT_OPERATIONS,
  type ProjectRef,
  type QuotaView,
  type RequestReply,
} from '@app/contracts';
import {
  decideCustomer,
  decideProject,
  type Principal,
  CustomerService,
  ProjectService,
  type Transaction,
  denied,
} from '../../identity';
import { QuotaRepository, type QuotaOwner } from '../repositories/quota.repository';
import {
  projectLimitRefusal,
  quotaBreach,
  quotaRefusal,
  type QuotaBreach,
  quotaViews,
  type QuotaAmounts,
  type QuotaScope,
} from '../domain/quota-rules';

/**
 * Organisation and project quotas: who sets them, what they show, and the check every order that
 * grows usage passes. The check runs in the order's own transaction, after the organisation's and
 * the project's row locks, so concurrent orders are counted one after the other.
 */
@Injectable()
export class QuotaService {
  constructor(
    private readonly quotas: QuotaRepository,
    private readonly customers: CustomerService,
    private readonly projects: ProjectService,
  ) {}

  /**
   * In the order's transaction, before it is written: the refusal (400 naming `limits`) when the
   * order's growth passes a quota of its project or organisation. Locks both until `tx` ends.
   */
  async admit(tx: Transaction, project: ProjectRef, asks: QuotaAmounts): Promise<RequestReply<never> | null> {
    if (!QUOTA_NAMES.some((name) => asks[name] > 0)) return null;
    await this.quotas.lockScopes(tx, project.customerUuid, project.uuid);
    return this.refusal(await this.scopes(project, tx), asks);
  }

  /**
   * The same check for growth asked on a VM's own endpoint (a disk, a resize), in the transaction
   * that reserves it: the quota it would pass and the message, or null. Locks both scopes until `tx`
   * ends, as an order does, so requests and orders are counted one after the other.
   */
  async breach(tx: Transaction, project: ProjectRef, asks: QuotaAmounts): Promise<QuotaBreach | null> {
    if (!QUOTA_NAMES.some((name) => asks[name] > 0)) return null;
    await this.quotas.lockScopes(tx, project.customerUuid, project.uuid);
    return quotaBreach(await this.scopes(project, tx), asks, 'request');
  }

  /** The same check without locks, for the order form's dry run (nothing is written). */
  async preview(project: ProjectRef, asks: QuotaAmounts): Promise<RequestReply<never> | null> {
    return this.refusal(await this.scopes(project), asks);
  }

  async view(owner: QuotaOwner): Promise<QuotaView[]> {
    const [limits, usage] = await Promise.all([this.quotas.limitsOf(owner), this.quotas.usageOf(owner)]);
    return quotaViews(limits, usage);
  }

  /** Staff set an organisation's quotas. */
  async setCustomerQuotas(
    request: OperationRequest<(typeof CUSTOMER_OPERATIONS)['setQuotas']>,
    principal: Principal,
  ): Promise<RequestReply<null>> {
    const customer = await this.customers.getById(request.params.uuid);
    const decision = customer ? decideCustomer(principal, customer.uuid, 'set-quotas') : 'hide';
    if (decision !== 'allow') return denied(decision);
    await this.quotas.setLimits({ kind: 'customer', uuid: request.params.uuid }, request.body);
    return ok(null);
  }

  /** The organisation's owners (and staff) set a project's quotas, never above the organisation's. */
  async setProjectQuotas(
    request: OperationRequest<(typeof PROJECT_OPERATIONS)['setQuotas']>,
    principal: Principal,
  ): Promise<RequestReply<null>> {
    const project = await this.projects.getById(request.params.uuid);
    if (!project) return denied('hide');
    const decision = decideProject(principal, project, 'set-quotas');
    if (decision !== 'allow') return denied(decision);
    const organisation = await this.quotas.limitsOf({ kind: 'customer', uuid: project.customerUuid });
    for (const name of QUOTA_NAMES) {
      const wanted = request.body[name];
      const refused = wanted === undefined ? null : projectLimitRefusal(name, wanted, organisation);
      if (refused) return invalidField(name, refused);
    }
    await this.quotas.setLimits({ kind: 'project', uuid: project.uuid }, request.body);
    return ok(null);
  }

  private async scopes(project: ProjectRef, tx?: Transaction): Promise<QuotaScope[]> {
    const projectOwner: QuotaOwner = { kind: 'project', uuid: project.uuid };
    const customerOwner: QuotaOwner = { kind: 'customer', uuid: project.customerUuid };
    // One after the other: a transaction's queries share its one connection.
    const projectLimits = await this.quotas.limitsOf(projectOwner, tx);
    const customerLimits = await this.quotas.limitsOf(customerOwner, tx);
    const scopes: QuotaScope[] = [];
    // Usage is summed only where a limit is set: most organisations have none.
    if (Object.keys(projectLimits).length > 0)
      scopes.push({
        label: 'Project',
        limits: projectLimits,
        usage: await this.quotas.usageOf(projectOwner, tx),
      });
    if (Object.keys(customerLimits).length > 0)
      scopes.push({
        label: 'Organisation',
        limits: customerLimits,
        usage: await this.quotas.usageOf(customerOwner, tx),
      });
    return scopes;
  }

  private refusal(scopes: QuotaScope[], asks: QuotaAmounts): RequestReply<never> | null {
    const message = quotaRefusal(scopes, asks);
    return message === null ? null : invalidField('limits', message);
  }
}

/** `reply`'s view with the owner's quotas, when it is an answer (a refusal passes as it is). */
export async function withQuotas<V extends object>(
  quotas: QuotaService,
  reply: RequestReply<V>,
  owner: (view: V) => QuotaOwner,
): Promise<RequestReply<V & { quotas: QuotaView[] }>> {
  if (reply.status !== 'ok') return reply;
  return ok({ ...reply.data, quotas: await quotas.view(owner(reply.data)) });
}
