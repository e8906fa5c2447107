import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../api/client';
import type { Vm, VmOperation } from '../api/types';
import { describedBy, Field } from '../components/field';
import { Failure } from '../components/status';
import { useSession } from '../session';

/**
 * CPU, cores per socket and RAM of a powered-off VM (`PATCH /api/vmware-virtual-machine/{uuid}/`,
 * 202 with the operation): the result arrives as VmChanged, like every other action's.
 */
export function VmResize({ vm, onOperation }: { vm: Vm; onOperation: (operation: VmOperation) => void }) {
  const { api } = useSession();
  const [cores, setCores] = useState(String(vm.cores));
  const [coresPerSocket, setCoresPerSocket] = useState(String(vm.cores_per_socket));
  const [ram, setRam] = useState(String(vm.ram));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const off = vm.runtime_state === 'POWERED_OFF';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(undefined);
    const body: Record<string, number> = {};
    if (Number(cores) !== vm.cores) body.cores = Number(cores);
    if (Number(coresPerSocket) !== vm.cores_per_socket) body.cores_per_socket = Number(coresPerSocket);
    if (Number(ram) !== vm.ram) body.ram = Number(ram);
    try {
      onOperation(
        await api.patch<VmOperation>(fillPath(API_PATHS.vmwareVirtualMachine, { uuid: vm.uuid }), body),
      );
    } catch (refusal) {
      if (refusal instanceof ApiError && refusal.status === 400 && refusal.body.detail === undefined)
        setErrors(refusal.body as Record<string, string[]>);
      else setFailure(messageOf(refusal));
    }
  };

  const input = (id: string, label: string, value: string, set: (v: string) => void) => (
    <Field id={id} label={label} errors={errors[id]}>
      <input
        {...describedBy(id, errors[id])}
        type="number"
        min={1}
        value={value}
        disabled={!off}
        onChange={(event) => set(event.target.value)}
      />
    </Field>
  );

  return (
    <form className="resize" onSubmit={(event) => void submit(event)} aria-labelledby="resize-title">
      <h2 id="resize-title">Resize</h2>
      {!off && <p className="hint">Power the VM off to change its CPU or RAM.</p>}
      <div className="row">
        {input('cores', 'vCPU', cores, setCores)}
        {input('cores_per_socket', 'Cores per socket', coresPerSocket, setCoresPerSocket)}
        {input('ram', 'RAM (MiB)', ram, setRam)}
      </div>
      <Failure message={failure} />
      <button type="submit" disabled={!off}>
        Resize
      </button>
    </form>
  );
}
