import {
  HAND_PROCESSED_TYPES,
  isHandProcessed,
  PENDING_ORDER_STATES,
  type OrderState,
  type OrderType,
  type ResourceState,
  type TerminalOrderState,
} from '@app/contracts';
import {
  canActForProvider,
  canSeeProject,
  decideInProject,
  type Decision,
  type Principal,
  type ProjectRef,
} from '../../identity';

/**
 * Who reviews an order and where each review action takes it: Waldur's marketplace rules
 * (waldur-facts §1.3–1.4) reduced to the roles and offering types of this marketplace.
 */

/** What the rules need to know of an order: where it lives and who provides it. */
export interface OrderScope {
  readonly project: ProjectRef;
  /** The offering's customer: the service provider. */
  readonly providerUuid: string;
  readonly offeringType: string;
  readonly type: OrderType;
  readonly createdBy: string | null;
}

export type OrderAction =
  | 'approve_by_consumer'
  | 'reject_by_consumer'
  | 'approve_by_provider'
  | 'reject_by_provider'
  | 'cancel'
  | 'retry'
  | 'set_state_done'
  | 'set_state_erred';

/** Orders of the project's members, and those of the provider's offerings for the provider's owners. */
export function canSeeOrder(principal: Principal, scope: Pick<OrderScope, 'project' | 'providerUuid'>) {
  return canSeeProject(principal, scope.project) || canActForProvider(principal, scope.providerUuid);
}

/** Staff, the organisation's owners and the project's managers and admins order in a project; members look. */
export function decideOrderCreate(principal: Principal, project: ProjectRef): Decision {
  return decideInProject(principal, project, 'act');
}

/** Waldur's APPROVE_ORDER on the project or customer: staff, the customer's owners, the project's managers. */
export function mayApproveAsConsumer(principal: Principal, project: ProjectRef): boolean {
  return (
    principal.isStaff ||
    principal.ownedCustomers.has(project.customerUuid) ||
    (principal.projectRoles.get(project.uuid)?.roles.has('PROJECT.MANAGER') ?? false)
  );
}

/** Waldur's `order_should_not_be_reviewed_by_consumer`, with the roles this marketplace has. */
export function consumerReviewSkipped(principal: Principal, scope: OrderScope): boolean {
  if (mayApproveAsConsumer(principal, scope.project)) return true;
  return scope.type === 'Terminate' && principal.ownedCustomers.has(scope.providerUuid);
}

/** Only hand-processed orders (`Marketplace.Basic`, OpenStack) wait for their provider: the adapters carry out the others at once. */
export function providerReviewSkipped(offeringType: string): boolean {
  return !isHandProcessed(offeringType);
}

/** The state an order starts in, created by `principal`. */
export function initialState(principal: Principal, scope: OrderScope): OrderState {
  if (!consumerReviewSkipped(principal, scope)) return 'pending-consumer';
  return providerReviewSkipped(scope.offeringType) ? 'executing' : 'pending-provider';
}

/** A refusal of an action: 403/404 from the policy, or 409 with the reason. */
export type ActionCheck =
  | { ok: true; to: OrderState }
  | { ok: false; decision: 'forbid' | 'hide' }
  | {
      ok: false;
      conflict: string;
    };

const FROM: Record<OrderAction, readonly OrderState[]> = {
  approve_by_consumer: ['pending-consumer'],
  reject_by_consumer: ['pending-consumer'],
  approve_by_provider: ['pending-provider'],
  reject_by_provider: ['pending-provider'],
  cancel: PENDING_ORDER_STATES,
  retry: ['erred'],
  set_state_done: ['executing'],
  set_state_erred: PENDING_ORDER_STATES,
};

const VERB: Record<OrderAction, string> = {
  approve_by_consumer: 'approved by the consumer',
  reject_by_consumer: 'rejected by the consumer',
  approve_by_provider: 'approved by the provider',
  reject_by_provider: 'rejected by the provider',
  cancel: 'canceled',
  retry: 'retried',
  set_state_done: 'set to done',
  set_state_erred: 'set to erred',
};

/** Actions only a hand-processed order takes: its provider works by hand (Waldur: Basic and Support). */
const HAND_ONLY: ReadonlySet<OrderAction> = new Set(['cancel', 'set_state_done', 'set_state_erred']);

function allowedBy(action: OrderAction, principal: Principal, scope: OrderScope): boolean {
  const provider = canActForProvider(principal, scope.providerUuid);
  switch (action) {
    case 'approve_by_consumer':
    case 'reject_by_consumer':
      return mayApproveAsConsumer(principal, scope.project);
    case 'approve_by_provider':
    case 'reject_by_provider':
    case 'set_state_done':
    case 'set_state_erred':
      return provider;
    case 'cancel':
      return (
        mayApproveAsConsumer(principal, scope.project) ||
        (scope.createdBy !== null && scope.createdBy === principal.userUuid)
      );
    case 'retry':
      return provider || mayApproveAsConsumer(principal, scope.project);
  }
}

/** Whether `principal` may take `action` on an order in `state`, and where it goes. */
export function checkAction(
  action: OrderAction,
  principal: Principal,
  scope: OrderScope,
  state: OrderState,
): ActionCheck {
  if (!canSeeOrder(principal, scope)) return { ok: false, decision: 'hide' };
  if (!allowedBy(action, principal, scope)) return { ok: false, decision: 'forbid' };
  if (HAND_ONLY.has(action) && !isHandProcessed(scope.offeringType))
    return {
      ok: false,
      conflict: `Only orders of ${HAND_PROCESSED_TYPES.join(', ')} offerings can be ${VERB[action]}; this offering is ${scope.offeringType}.`,
    };
  if (!FROM[action].includes(state))
    return {
      ok: false,
      conflict: `Order is ${state}: only ${FROM[action].join(', ')} orders can be ${VERB[action]}.`,
    };
  return { ok: true, to: targetOf(action, scope.offeringType) };
}

function targetOf(action: OrderAction, offeringType: string): OrderState {
  switch (action) {
    case 'approve_by_consumer':
      return providerReviewSkipped(offeringType) ? 'executing' : 'pending-provider';
    case 'approve_by_provider':
    case 'retry':
      return 'executing';
    case 'reject_by_consumer':
    case 'reject_by_provider':
      return 'rejected';
    case 'cancel':
      return 'canceled';
    case 'set_state_done':
      return 'done';
    case 'set_state_erred':
      return 'erred';
  }
}

/** The resource state an order of `type` holds its resource in while it is pending or executing. */
export function resourceStateWhilePending(type: OrderType): ResourceState {
  return type === 'Create' ? 'Creating' : type === 'Update' ? 'Updating' : 'Terminating';
}

/**
 * Where the resource goes when its order ends. A rejected or canceled Create leaves nothing behind
 * (Terminated, as Waldur does); a rejected or canceled Update or Terminate gives the resource back
 * as it was before (`before`); an erred order leaves it Erred with the order's message.
 */
export function resourceStateAfter(
  type: OrderType,
  orderState: TerminalOrderState,
  before: ResourceState,
): ResourceState {
  if (orderState === 'erred') return 'Erred';
  if (orderState === 'done') return type === 'Terminate' ? 'Terminated' : 'OK';
  return type === 'Create' ? 'Terminated' : before;
}
