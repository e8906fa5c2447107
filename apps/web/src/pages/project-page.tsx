import { API_PATHS } from '@app/contracts/http/api-paths';
import type { QuotaName, QuotaView } from '@app/contracts/identity/quotas';
import type { Project } from '../api/types';
import { Failure, Loading } from '../components/status';
import { useLoad } from '../components/use-load';
import { useFeed, useSession } from '../session';

/** The quotas' names as the server's refusals spell them (the web app imports no values from contracts). */
const QUOTA_LABELS: Readonly<Record<QuotaName, string>> = {
  vcpu: 'vCPU',
  ram: 'RAM (MiB)',
  storage: 'storage (MiB)',
  max_instances: 'VMs',
  cost: 'monthly cost',
};
/** Waldur's limit for "no limit". */
const UNLIMITED = -1;

/**
 * A project and its quotas: for each, the limit and what is used, counting what is ordered and not
 * yet done, as a bar. A resource's change (ordered, resized, terminated) can move the usage: the
 * project is read again when one of its resources changes.
 */
export function ProjectPage({ uuid }: { uuid: string }) {
  const { api } = useSession();
  const project = useLoad(`project-${uuid}`, (signal) =>
    api.get<Project>(`${API_PATHS.projects}${uuid}/`, signal),
  );
  useFeed(['ResourceStateChanged', 'OrderStateChanged'], (event) => {
    const changed = event.data as { project_uuid?: string };
    if (changed.project_uuid !== uuid) return;
    void api.get<Project>(`${API_PATHS.projects}${uuid}/`).then(
      (fresh) => project.setData(() => fresh),
      () => undefined,
    );
  });
  if (project.error) return <Failure message={project.error} />;
  const current = project.data;
  if (!current) return <Loading what="the project" />;
  return (
    <section aria-labelledby="project-title">
      <h1 id="project-title">{current.name}</h1>
      <p className="meta">{current.customer_name}</p>
      {current.description && <p>{current.description}</p>}
      <h2 id="quotas-title">Quotas</h2>
      <ul className="quotas" aria-labelledby="quotas-title">
        {(current.quotas ?? []).map((quota) => (
          <QuotaBar key={quota.name} quota={quota} />
        ))}
      </ul>
    </section>
  );
}

function QuotaBar({ quota }: { quota: QuotaView }) {
  const label = QUOTA_LABELS[quota.name];
  const unit = quota.name === 'cost' ? quota.usage.toFixed(2) : String(quota.usage);
  const limited = quota.limit !== UNLIMITED;
  const text = limited
    ? `${unit} of ${quota.limit} in use or ordered`
    : `${unit} in use or ordered, no limit`;
  const full = limited && quota.usage >= quota.limit;
  return (
    <li className={full ? 'quota full' : 'quota'} data-testid={`quota-${quota.name}`}>
      <span className="quota-name" id={`quota-${quota.name}-label`}>
        {label}
      </span>
      {limited ? (
        <meter
          aria-labelledby={`quota-${quota.name}-label`}
          min={0}
          max={Math.max(quota.limit, quota.usage, 1)}
          value={quota.usage}
          high={quota.limit * 0.8}
          optimum={0}
        />
      ) : (
        <span className="quota-unlimited" aria-hidden="true" />
      )}
      <span className="quota-text">{text}</span>
    </li>
  );
}
