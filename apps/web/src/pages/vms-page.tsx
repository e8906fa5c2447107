import { API_PATHS } from '@app/contracts/http/api-paths';
import type { Vm } from '../api/types';
import { Failure, Loading, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { useFeed, useSession } from '../session';

/** The project's virtual machines, their states applied as VmChanged arrives. */
export function VmsPage() {
  const { api, project } = useSession();
  const projectUuid = project?.uuid ?? '';
  const vms = useLoad(`vms-${projectUuid}`, (signal) =>
    projectUuid
      ? api.get<Vm[]>(`${API_PATHS.vmwareVirtualMachines}?project_uuid=${projectUuid}&page_size=100`, signal)
      : Promise.resolve([]),
  );
  useFeed(['VmChanged'], (event) => {
    const changed = event.data as Vm;
    vms.setData((current) => current?.map((vm) => (vm.uuid === changed.uuid ? changed : vm)));
  });
  return (
    <section aria-labelledby="vms-title">
      <h1 id="vms-title">Virtual machines{project && ` in ${project.name}`}</h1>
      <Failure message={vms.error} />
      {!vms.data && !vms.error && <Loading what="the virtual machines" />}
      {vms.data?.length === 0 && <p>No virtual machines in this project.</p>}
      <ul className="cards">
        {vms.data?.map((vm) => (
          <li key={vm.uuid} className="card">
            <h2>
              <Link href={`/vms/${vm.uuid}`}>{vm.name}</Link>
            </h2>
            <p>
              <StateBadge state={vm.state} /> <StateBadge state={vm.runtime_state} />
            </p>
            <p className="meta">
              {vm.cores} vCPU · {vm.ram} MiB RAM · {vm.disk} MiB disk
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
