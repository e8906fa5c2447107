import { API_PATHS } from '@app/contracts/http/api-paths';
import { useLoad } from './use-load';
import { useSession } from '../session';

/** The project roles that may act on a project's resources (the access policy's). */
const ACTING_PROJECT_ROLES = new Set(['PROJECT.MANAGER', 'PROJECT.ADMIN']);

interface Grant {
  role_name: string;
  user_uuid: string;
}

/**
 * Whether the signed-in user may act on what a project holds, as the server's one access policy
 * decides it: staff, an owner of the organisation, or a manager or admin of the project. Read from
 * the role grants the user can see; undefined until known. Only to show or hide controls: the
 * server decides each request itself.
 */
export function useMayAct(
  projectUuid: string | undefined,
  customerUuid: string | undefined,
): boolean | undefined {
  const { api, user } = useSession();
  const decided = useLoad(
    `may-act-${projectUuid ?? ''}-${customerUuid ?? ''}-${user.uuid}`,
    async (signal) => {
      if (user.is_staff) return true;
      if (!projectUuid || !customerUuid) return false;
      const grants = (path: string) =>
        api.get<Grant[]>(`${path}list_users/?page_size=300`, signal).catch((): Grant[] => []);
      const mine = (list: Grant[]) => list.filter((grant) => grant.user_uuid === user.uuid);
      const [project, customer] = await Promise.all([
        grants(`${API_PATHS.projects}${projectUuid}/`),
        grants(`${API_PATHS.customers}${customerUuid}/`),
      ]);
      return (
        mine(project).some((grant) => ACTING_PROJECT_ROLES.has(grant.role_name)) ||
        mine(customer).some((grant) => grant.role_name === 'CUSTOMER.OWNER')
      );
    },
  );
  return decided.data;
}
