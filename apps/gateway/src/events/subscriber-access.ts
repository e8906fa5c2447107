import {
  canActForProvider,
  canSeeProject,
  principalOfContext,
  type CallerContext,
  type Principal,
} from '@app/contracts';
import type { EventScope } from './feed-event';

/**
 * What one subscriber may see, resolved once from the order service's caller context (by the
 * subscriber's token) and then checked per event in memory, with the same shared access policy as
 * REST: an order, resource or VM event needs visibility of its project (staff, the customer's
 * owners, any role in that very project: a role in another project of the same customer is not
 * enough); a provider's owners also see the orders and resources of their offerings, and their
 * offerings in any state; Active offerings are public.
 */
export class SubscriberAccess {
  private constructor(private readonly principal: Principal) {}

  static from(context: CallerContext): SubscriberAccess {
    return new SubscriberAccess(principalOfContext(context));
  }

  get userUuid(): string {
    return this.principal.userUuid;
  }

  canSee(scope: EventScope): boolean {
    if (this.principal.isStaff || scope.public) return true;
    // No project (an offering's or integration's event, a VM no order placed): only owners match.
    const project = { uuid: scope.projectUuid ?? '', customerUuid: scope.customerUuid };
    return canSeeProject(this.principal, project) || canActForProvider(this.principal, scope.providerUuid);
  }
}
