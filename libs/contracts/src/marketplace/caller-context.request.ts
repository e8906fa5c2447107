import { z } from 'zod';
import type { Principal } from '../identity/access-policy';
import { operation } from '../identity/operation';
import { PROJECT_ROLES, type ProjectRole } from '../identity/role-grants';

/**
 * `callers.context`: the caller resolved from their token, as services without users of their own
 * need them to ask the shared access policy (`identity/access-policy.ts`): staff or not, the
 * customers they own and their role grants per project. Asked, with the user's token, by the
 * vSphere adapter for every request the gateway forwards to it, and by the gateway once per SSE
 * subscriber at connect and after an AccessChanged naming the user. Answered by the order service
 * with RequestReply<CallerContext>; a token it does not accept is a 401. Its own first token
 * (`callers`), so that the adapter may ask this and no other request of the order service.
 */
export const CALLER_CONTEXT = operation('callers.context', {});

/** One project the user holds roles in, with the project's customer. */
export const projectGrantSchema = z.strictObject({
  project_uuid: z.uuid(),
  customer_uuid: z.uuid(),
  roles: z.array(z.enum(PROJECT_ROLES)).min(1).max(PROJECT_ROLES.length),
});
export type ProjectGrant = z.infer<typeof projectGrantSchema>;

export const callerContextSchema = z.strictObject({
  user_uuid: z.uuid(),
  is_staff: z.boolean(),
  /** Customers the user owns (CUSTOMER.OWNER): all their projects, and their offerings as a provider. */
  owned_customer_uuids: z.array(z.uuid()).max(10_000),
  /** Every project the user holds a role in, with its customer and the roles. */
  project_grants: z.array(projectGrantSchema).max(10_000),
});
export type CallerContext = z.infer<typeof callerContextSchema>;

/** The context as the access policy reads it. */
export function principalOfContext(context: CallerContext): Principal {
  const projectRoles = new Map<string, { customerUuid: string; roles: Set<ProjectRole> }>();
  for (const grant of context.project_grants) {
    const entry = projectRoles.get(grant.project_uuid) ?? {
      customerUuid: grant.customer_uuid,
      roles: new Set<ProjectRole>(),
    };
    for (const role of grant.roles) entry.roles.add(role);
    projectRoles.set(grant.project_uuid, entry);
  }
  return {
    userUuid: context.user_uuid,
    isStaff: context.is_staff,
    ownedCustomers: new Set(context.owned_customer_uuids),
    projectRoles,
  };
}

/** The principal on the wire: what the order service answers `callers.context` with. */
export function contextOfPrincipal(principal: Principal): CallerContext {
  return {
    user_uuid: principal.userUuid,
    is_staff: principal.isStaff,
    owned_customer_uuids: [...principal.ownedCustomers],
    project_grants: [...principal.projectRoles].map(([projectUuid, grant]) => ({
      project_uuid: projectUuid,
      customer_uuid: grant.customerUuid,
      roles: [...grant.roles],
    })),
  };
}
