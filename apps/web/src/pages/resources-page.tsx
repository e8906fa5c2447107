import { API_PATHS } from '@app/contracts/http/api-paths';
import type { Resource } from '../api/types';
import { VMWARE_VM_TYPE } from '../api/vocabulary';
import { Failure, Loading, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { useFeed, useSession } from '../session';
import { TableWrap } from '../components/table-wrap';

const newestFirst = (a: Resource, b: Resource) => b.created.localeCompare(a.created);

/** The project's marketplace resources, each change applied as its ResourceStateChanged arrives. */
export function ResourcesPage() {
  const { api, project } = useSession();
  const projectUuid = project?.uuid ?? '';
  const resources = useLoad(`resources-${projectUuid}`, (signal) =>
    projectUuid
      ? api.get<Resource[]>(`${API_PATHS.resources}?project_uuid=${projectUuid}&page_size=100`, signal)
      : Promise.resolve([]),
  );
  useFeed(['ResourceStateChanged'], (event) => {
    const changed = event.data as Resource;
    if (changed.project_uuid !== projectUuid) return;
    resources.setData((current = []) => [changed, ...current.filter((r) => r.uuid !== changed.uuid)]);
  });
  return (
    <section aria-labelledby="resources-title">
      <h1 id="resources-title">Resources{project && ` in ${project.name}`}</h1>
      <Failure message={resources.error} />
      {!resources.data && !resources.error && <Loading what="the resources" />}
      {resources.data?.length === 0 && <p>No resources in this project yet.</p>}
      {resources.data && resources.data.length > 0 && (
        <TableWrap label="Resources of the project">
          <table>
            <caption className="visually-hidden">Resources of the project</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Offering</th>
                <th scope="col">State</th>
                <th scope="col">Monthly cost</th>
              </tr>
            </thead>
            <tbody>
              {[...resources.data].sort(newestFirst).map((resource) => (
                <tr key={resource.uuid} data-resource={resource.name}>
                  <td>
                    {resource.offering_type === VMWARE_VM_TYPE &&
                    resource.resource_uuid &&
                    resource.state !== 'Terminated' ? (
                      <Link href={`/vms/${resource.resource_uuid}`}>{resource.name}</Link>
                    ) : (
                      resource.name
                    )}
                  </td>
                  <td>{resource.offering_name}</td>
                  <td>
                    <StateBadge state={resource.state} />
                    {resource.error_message && <span className="error"> {resource.error_message}</span>}
                  </td>
                  <td>{resource.cost ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
