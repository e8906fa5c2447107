import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, messageOf } from '../api/client';
import type { Disk, Named, Port, Vm, VmOperation } from '../api/types';
import { describedBy, Field } from '../components/field';
import { Failure, StateBadge } from '../components/status';
import { useIntentKey } from '../components/use-intent-key';
import { useLoad } from '../components/use-load';
import { useSession } from '../session';

const MIB_PER_GIB = 1024;
// The sizes carry no `min`: the adapter knows the rules (1024 MiB at least, the offering's maximums)
// and its message shows under the field, where a browser's own bubble would say less.

interface DevicesProps {
  vm: Vm;
  onOperation: (operation: VmOperation) => void;
}

/** A refusal split the way the form shows it: a 400's messages under their fields, else one line. */
function useRefusal() {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const clear = () => {
    setErrors({});
    setFailure(undefined);
  };
  const show = (refusal: unknown) => {
    if (refusal instanceof ApiError && refusal.status === 400 && refusal.body.detail === undefined)
      setErrors(refusal.body as Record<string, string[]>);
    else setFailure(messageOf(refusal));
  };
  return { errors, failure, clear, show };
}

/** Runs a call whose answer is an operation (202) or nothing (204), reporting the first. */
async function run(
  call: () => Promise<VmOperation | undefined>,
  onOperation: (operation: VmOperation) => void,
): Promise<void> {
  const operation = await call();
  if (operation) onOperation(operation);
}

function gib(mib: number): string {
  return (mib / MIB_PER_GIB).toLocaleString('en', { maximumFractionDigits: 2 });
}

/**
 * The VM's disks: add one (GiB asked, MiB sent), extend, delete — or destroy one vCenter never made.
 * Each disk's new state arrives as VmChanged; the calls' refusals stay next to their fields.
 */
export function VmDisks({ vm, onOperation }: DevicesProps) {
  const { api } = useSession();
  const [size, setSize] = useState('');
  const refusal = useRefusal();
  const intent = useIntentKey({ vm: vm.uuid, size });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    refusal.clear();
    try {
      await api.post<Disk>(
        fillPath(API_PATHS.vmwareVirtualMachineCreateDisk, { uuid: vm.uuid }),
        { size: Math.round(Number(size) * MIB_PER_GIB) },
        undefined,
        intent.key(),
      );
      intent.renew();
      setSize('');
    } catch (failure) {
      refusal.show(failure);
    }
  };

  return (
    <section aria-labelledby="disks-title">
      <h2 id="disks-title">Disks</h2>
      <ul className="devices">
        {vm.disks.map((disk, index) => (
          <DiskRow key={disk.uuid} disk={disk} label={`Disk ${index + 1}`} onOperation={onOperation} />
        ))}
      </ul>
      <form className="device-form" onSubmit={(event) => void add(event)} aria-label="Add a disk">
        <Field id="new-disk-size" label="New disk size (GiB)" errors={refusal.errors.size}>
          <input
            {...describedBy('new-disk-size', refusal.errors.size)}
            type="number"
            step="any"
            required
            value={size}
            onChange={(event) => setSize(event.target.value)}
          />
        </Field>
        <Failure message={refusal.failure} />
        <button type="submit">Add disk</button>
      </form>
    </section>
  );
}

function DiskRow({
  disk,
  label,
  onOperation,
}: {
  disk: Disk;
  label: string;
  onOperation: (operation: VmOperation) => void;
}) {
  const { api } = useSession();
  const [size, setSize] = useState(gib(disk.size));
  const refusal = useRefusal();
  const id = `disk-${disk.uuid}-size`;
  // A disk vCenter refused to make has nothing there to remove: deleting it only drops the row.
  const neverMade = disk.state === 'ERRED' && disk.backend_id === '';

  const extend = async (event: FormEvent) => {
    event.preventDefault();
    refusal.clear();
    try {
      await run(
        () =>
          api.post<VmOperation>(fillPath(API_PATHS.vmwareDiskExtend, { uuid: disk.uuid }), {
            size: Math.round(Number(size) * MIB_PER_GIB),
          }),
        onOperation,
      );
    } catch (failure) {
      refusal.show(failure);
    }
  };

  const remove = async () => {
    refusal.clear();
    try {
      await run(
        () => api.delete<VmOperation>(fillPath(API_PATHS.vmwareDisk, { uuid: disk.uuid })),
        onOperation,
      );
    } catch (failure) {
      refusal.show(failure);
    }
  };

  return (
    <Device
      name={`${label}: ${gib(disk.size)} GiB (${disk.size} MiB)`}
      state={disk.state}
      message={disk.error_message}
    >
      {!neverMade && (
        <form className="device-form" onSubmit={(event) => void extend(event)} aria-label={`Extend ${label}`}>
          <Field id={id} label={`New size of ${label.toLowerCase()} (GiB)`} errors={refusal.errors.size}>
            <input
              {...describedBy(id, refusal.errors.size)}
              type="number"
              step="any"
              required
              value={size}
              onChange={(event) => setSize(event.target.value)}
            />
          </Field>
          <button type="submit" className="secondary">
            Extend {label.toLowerCase()}
          </button>
        </form>
      )}
      <Failure message={refusal.failure} />
      <button type="button" className="danger" onClick={() => void remove()}>
        {neverMade ? 'Destroy' : 'Delete'} {label.toLowerCase()}
      </button>
    </Device>
  );
}

/**
 * The VM's network adapters: add one on a network its organisation may use for existing VMs, delete
 * one; the new adapter's state arrives as VmChanged.
 */
export function VmPorts({ vm, onOperation }: DevicesProps) {
  const { api } = useSession();
  const networks = useLoad(`existing-vm-networks-${vm.offering_uuid}`, (signal) =>
    api.get<Named[]>(
      `${API_PATHS.vmwareNetworks}?offering_uuid=${vm.offering_uuid}&for_existing_vms=true&page_size=200`,
      signal,
    ),
  );
  const [network, setNetwork] = useState('');
  const refusal = useRefusal();
  const intent = useIntentKey({ vm: vm.uuid, network });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    refusal.clear();
    try {
      await api.post<Port>(
        fillPath(API_PATHS.vmwareVirtualMachineCreatePort, { uuid: vm.uuid }),
        { network },
        undefined,
        intent.key(),
      );
      intent.renew();
    } catch (failure) {
      refusal.show(failure);
    }
  };

  const remove = async (port: Port) => {
    refusal.clear();
    try {
      await run(
        () => api.delete<VmOperation>(fillPath(API_PATHS.vmwarePort, { uuid: port.uuid })),
        onOperation,
      );
    } catch (failure) {
      refusal.show(failure);
    }
  };

  const choices = networks.data ?? [];
  return (
    <section aria-labelledby="ports-title">
      <h2 id="ports-title">Network adapters</h2>
      <ul className="devices">
        {vm.ports.map((port, index) => (
          <Device
            key={port.uuid}
            name={`Adapter ${index + 1}: ${port.network_name || 'no network'} · ${port.mac_address || 'no MAC yet'}`}
            state={port.state}
            message={port.error_message}
          >
            <button type="button" className="danger" onClick={() => void remove(port)}>
              Delete adapter {index + 1}
            </button>
          </Device>
        ))}
      </ul>
      <form className="device-form" onSubmit={(event) => void add(event)} aria-label="Add a network adapter">
        <Field
          id="new-port-network"
          label="Network for a new adapter"
          errors={refusal.errors.network}
          hint={
            choices.length === 0 && networks.data
              ? 'No network is available to your organisation for existing VMs.'
              : undefined
          }
        >
          <select
            {...describedBy(
              'new-port-network',
              refusal.errors.network,
              choices.length === 0 && !!networks.data,
            )}
            required
            value={network}
            onChange={(event) => setNetwork(event.target.value)}
          >
            <option value="">Choose a network…</option>
            {choices.map((choice) => (
              <option key={choice.uuid} value={choice.uuid}>
                {choice.name}
              </option>
            ))}
          </select>
        </Field>
        <Failure message={refusal.failure ?? networks.error} />
        <button type="submit">Add adapter</button>
      </form>
    </section>
  );
}

function Device({
  name,
  state,
  message,
  children,
}: {
  name: string;
  state: string;
  message: string;
  children: ReactNode;
}) {
  return (
    <li className="device">
      <p>
        {name} <StateBadge state={state} />
      </p>
      {message && <p className="error">{message}</p>}
      <div className="actions">{children}</div>
    </li>
  );
}
