import { API_PATHS, VMWARE_ASSIGNMENT_PATHS } from '@app/contracts/http/api-paths';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../../api/client';
import type { Assignment, AssignmentKind, Customer, Named } from '../../api/types';
import { describedBy, Field } from '../../components/field';
import { Failure } from '../../components/status';
import { useIntentKey } from '../../components/use-intent-key';
import { useLoad } from '../../components/use-load';
import { useSession } from '../../session';

interface KindSpec {
  kind: AssignmentKind;
  title: string;
  /** The body field naming the object. */
  field: string;
  /** The offering's objects of this kind (`/api/vmware-networks/`). */
  inventory: string;
}

// Waldur's five assignment sections of the customer admin page, as the REST API names them.
const KINDS: readonly KindSpec[] = [
  { kind: 'clusters', title: 'Clusters', field: 'cluster', inventory: API_PATHS.vmwareClusters },
  {
    kind: 'networks',
    title: 'Networks for new VMs',

    field: 'network',
    inventory: API_PATHS.vmwareNetworks,
  },
  {
    kind: 'existing-vm-networks',
    title: 'Networks for existing VMs',

    field: 'network',
    inventory: API_PATHS.vmwareNetworks,
  },
  {
    kind: 'datastores',
    title: 'Datastores',

    field: 'datastore',
    inventory: API_PATHS.vmwareDatastores,
  },
  { kind: 'folders', title: 'Folders', field: 'folder', inventory: API_PATHS.vmwareFolders },
];

/**
 * Which of the offering's clusters, networks, datastores and folders each organisation may use:
 * listed, assigned and taken back through `/api/vmware-customer-*` (staff only, as in Waldur).
 */
export function CustomerAssignments({ offeringUuid }: { offeringUuid: string }) {
  const { api } = useSession();
  const customers = useLoad('assignment-customers', (signal) =>
    api.get<Customer[]>(`${API_PATHS.customers}?page_size=200`, signal),
  );
  const [customerUuid, setCustomerUuid] = useState('');
  const chosen = customerUuid || customers.data?.[0]?.uuid || '';

  return (
    <section aria-labelledby="assignments-title">
      <h2 id="assignments-title">Customer assignments</h2>
      <Failure message={customers.error} />
      <Field id="assignment-customer" label="Organisation">
        <select
          id="assignment-customer"
          value={chosen}
          onChange={(event) => setCustomerUuid(event.target.value)}
        >
          {(customers.data ?? []).map((customer) => (
            <option key={customer.uuid} value={customer.uuid}>
              {customer.name}
            </option>
          ))}
        </select>
      </Field>
      {chosen &&
        KINDS.map((spec) => (
          <KindAssignments
            key={`${chosen}:${spec.kind}`}
            spec={spec}
            customerUuid={chosen}
            offeringUuid={offeringUuid}
          />
        ))}
    </section>
  );
}

function KindAssignments({
  spec,
  customerUuid,
  offeringUuid,
}: {
  spec: KindSpec;
  customerUuid: string;
  offeringUuid: string;
}) {
  const { api } = useSession();
  const base = VMWARE_ASSIGNMENT_PATHS[spec.kind];
  const assigned = useLoad(`assigned:${spec.kind}:${customerUuid}:${offeringUuid}`, (signal) =>
    api.get<Assignment[]>(
      `${base}?customer_uuid=${customerUuid}&offering_uuid=${offeringUuid}&page_size=200`,
      signal,
    ),
  );
  const objects = useLoad(`inventory:${spec.inventory}:${offeringUuid}`, (signal) =>
    api.get<Named[]>(`${spec.inventory}?offering_uuid=${offeringUuid}&page_size=300`, signal),
  );
  const [choice, setChoice] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const id = `assign-${spec.kind}`;
  const taken = new Set((assigned.data ?? []).map((a) => a.object_uuid));
  const free = (objects.data ?? []).filter((object) => !taken.has(object.uuid));
  const selected = free.some((object) => object.uuid === choice) ? choice : (free[0]?.uuid ?? '');

  const refusal = (failure: unknown): string[] => {
    if (!(failure instanceof ApiError)) return [messageOf(failure)];
    const own = [...failure.field(spec.field), ...failure.field('customer')];
    return own.length > 0 ? own : [failure.message];
  };

  const intent = useIntentKey({ base, customerUuid, selected });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return;
    setErrors([]);
    setBusy(true);
    try {
      const made = await api.post<Assignment>(
        base,
        { customer: customerUuid, [spec.field]: selected },
        undefined,
        intent.key(),
      );
      intent.renew();
      assigned.setData((current = []) => [...current, made]);
    } catch (failure) {
      setErrors(refusal(failure));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (assignment: Assignment) => {
    setErrors([]);
    setBusy(true);
    try {
      await api.post(`${base}remove/`, { customer: customerUuid, [spec.field]: assignment.object_uuid });
      assigned.setData((current = []) => current.filter((a) => a.uuid !== assignment.uuid));
    } catch (failure) {
      setErrors(refusal(failure));
    } finally {
      setBusy(false);
    }
  };

  const titleId = `${id}-title`;
  return (
    <section aria-labelledby={titleId} className="assignments" data-assignments={spec.kind}>
      <h3 id={titleId}>{spec.title}</h3>
      <Failure message={assigned.error ?? objects.error} />
      {assigned.data?.length === 0 && <p>None assigned: the defaults apply.</p>}
      <ul className="devices">
        {(assigned.data ?? []).map((assignment) => (
          <li key={assignment.uuid} className="device" data-assigned={assignment.object_name}>
            <span>{assignment.object_name}</span>
            <button type="button" className="danger" disabled={busy} onClick={() => void remove(assignment)}>
              Remove
              <span className="visually-hidden">
                {' '}
                {assignment.object_name} from {spec.title}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <form className="device-form" onSubmit={(event) => void add(event)}>
        <Field id={id} label={`Add to ${spec.title}`} errors={errors}>
          <select
            {...describedBy(id, errors)}
            value={selected}
            onChange={(event) => setChoice(event.target.value)}
            disabled={free.length === 0}
          >
            {free.length === 0 && <option value="">Nothing left to assign</option>}
            {free.map((object) => (
              <option key={object.uuid} value={object.uuid}>
                {object.name}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={busy || !selected}>
          Assign<span className="visually-hidden"> to {spec.title}</span>
        </button>
      </form>
    </section>
  );
}
