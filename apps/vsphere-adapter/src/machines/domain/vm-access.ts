import {
  ACT_REFUSAL,
  decideInProject,
  principalOfContext,
  projectScope,
  refuse,
  type ProjectWork,
  type RequestReply,
  type VsphereCaller,
} from '@app/contracts';
import { NOT_FOUND } from '../../services/request-guard.service';

/**
 * Whose VMs a caller sees, for the repositories' WHERE clause: all (staff), or those of the
 * customers they own and of the projects they hold a role in: `canSeeProject` of the shared access
 * policy, as SQL.
 */
export type VmVisibility =
  { all: true } | { all: false; ownedCustomerUuids: readonly string[]; projectUuids: readonly string[] };

/** Where a recorded VM lives; a VM recorded without a project (none ordered it) is its customer's. */
export interface VmPlace {
  readonly projectUuid: string | null;
  readonly customerUuid: string | null;
}

export function visibilityOf(caller: VsphereCaller): VmVisibility {
  return projectScope(principalOfContext(caller));
}

/**
 * The one decision of every VM route (VMs, their disks and ports, consoles, pull): reads need to
 * see the VM's project, everything else the right to order in it. `null` to go on, or the refusal:
 * 404 exactly as for a VM that does not exist, or 403 with the reason.
 */
export function vmAccessRefusal(
  caller: VsphereCaller,
  vm: VmPlace,
  work: ProjectWork,
): RequestReply<never> | null {
  // No project: no project role reaches it (an empty uuid is nobody's project); owners and staff do.
  const project = { uuid: vm.projectUuid ?? '', customerUuid: vm.customerUuid ?? '' };
  const decision = decideInProject(principalOfContext(caller), project, work);
  if (decision === 'allow') return null;
  return decision === 'hide' ? refuse(404, NOT_FOUND) : refuse(403, ACT_REFUSAL);
}
