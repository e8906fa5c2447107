import type { CallerContext } from '@app/contracts';
import type { EventScope } from './feed-event';

/**
 * What one subscriber may see, resolved once from the order service's caller context and then
 * checked per event in memory. The same rules as REST: staff see everything; a project role shows
 * the project's orders and resources; a customer's owners see its projects' and, as a provider,
 * its offerings' orders and resources, and its offerings in any state; Active offerings are public.
 */
export class SubscriberAccess {
  private constructor(
    readonly userUuid: string,
    readonly staff: boolean,
    private readonly projects: ReadonlySet<string>,
    private readonly ownedCustomers: ReadonlySet<string>,
  ) {}

  static from(context: CallerContext): SubscriberAccess {
    return new SubscriberAccess(
      context.user_uuid,
      context.is_staff,
      new Set(context.project_uuids),
      new Set(context.owned_customer_uuids),
    );
  }

  canSee(scope: EventScope): boolean {
    if (this.staff || scope.public) return true;
    if (scope.projectUuid !== undefined && this.projects.has(scope.projectUuid)) return true;
    return this.ownedCustomers.has(scope.customerUuid) || this.ownedCustomers.has(scope.providerUuid);
  }
}
