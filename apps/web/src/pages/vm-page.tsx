import { API_PATHS, fillPath, vmActionPath } from '@app/contracts/http/api-paths';
import type { VmAction } from '@app/contracts/vsphere/virtual-machine.requests';
import { useState } from 'react';
import { messageOf } from '../api/client';
import type { Vm, VmOperation } from '../api/types';
import { Failure, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { useOnceAtATime } from '../components/use-once-at-a-time';
import { Link } from '../router';
import { useFeed, useSession } from '../session';
import { VmDisks, VmPorts } from './vm-devices';
import { VmEndDate } from './vm-end-date';
import { VmResize } from './vm-resize';
import { VmSnapshots } from './vm-snapshots';
import { VmUsage } from './vm-usage';

const POWER_ACTIONS = [
  { action: 'start', label: 'Start', when: ['POWERED_OFF', 'SUSPENDED'] },
  { action: 'stop', label: 'Stop', when: ['POWERED_ON', 'SUSPENDED'] },
  { action: 'reset', label: 'Reset', when: ['POWERED_ON'] },
  { action: 'suspend', label: 'Suspend', when: ['POWERED_ON'] },
  { action: 'shutdown_guest', label: 'Shut down guest', when: ['POWERED_ON'], tools: true },
  { action: 'reboot_guest', label: 'Reboot guest', when: ['POWERED_ON'], tools: true },
] as const;

/**
 * A VM: its runtime state, hardware, disks and adapters, kept current by VmChanged; power actions
 * whose progress and result arrive on the same stream; terminate, followed by its order.
 */
export function VmPage({ uuid }: { uuid: string }) {
  const { api, user } = useSession();
  const vm = useLoad(`vm-${uuid}`, (signal) =>
    api.get<Vm>(fillPath(API_PATHS.vmwareVirtualMachine, { uuid }), signal),
  );
  const [operation, setOperation] = useState<VmOperation | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [terminateOrder, setTerminateOrder] = useState<string | undefined>();
  const [resourceState, setResourceState] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [consoleUrl, setConsoleUrl] = useState<{ vmrc?: string; web?: string }>({});
  const [sending, setSending] = useState<VmAction | undefined>();

  useFeed(['VmChanged'], (event) => {
    const changed = event.data as Vm;
    if (changed.uuid !== uuid) return;
    vm.setData(() => changed);
    if (changed.operation && changed.operation.uuid === operation?.uuid) setOperation(changed.operation);
  });
  // The marketplace resource's state: Terminating, then Terminated once the VM is gone.
  useFeed(['ResourceStateChanged'], (event) => {
    const resource = event.data as { uuid: string; state: string };
    if (resource.uuid === vm.data?.marketplace_resource_uuid) setResourceState(resource.state);
  });

  // The web console is a single-use ticket vCenter makes for this VM; the VMRC link carries no
  // ticket (VMRC asks for a vCenter account of one's own), so it is offered to staff only.
  const openConsole = async (kind: 'vmrc' | 'web') => {
    setFailure(undefined);
    const path =
      kind === 'web' ? API_PATHS.vmwareVirtualMachineWebConsole : API_PATHS.vmwareVirtualMachineConsole;
    try {
      const answer = await api.get<{ url: string }>(fillPath(path, { uuid }));
      setConsoleUrl((urls) => ({ ...urls, [kind]: answer.url }));
    } catch (refusal) {
      setFailure(messageOf(refusal));
    }
  };

  // One power action at a time: until the server has answered with its operation, every button waits.
  const power = useOnceAtATime(async (action: VmAction) => {
    setFailure(undefined);
    setSending(action);
    try {
      setOperation(await api.post<VmOperation>(fillPath(vmActionPath(action), { uuid })));
    } catch (refusal) {
      setFailure(messageOf(refusal));
    } finally {
      setSending(undefined);
    }
  });

  const terminate = async () => {
    setConfirming(false);
    setFailure(undefined);
    try {
      const answer = await api.post<{ order_uuid: string }>(
        fillPath(API_PATHS.resourceTerminate, { uuid: vm.data?.marketplace_resource_uuid ?? '' }),
      );
      setTerminateOrder(answer.order_uuid);
    } catch (refusal) {
      setFailure(messageOf(refusal));
    }
  };

  if (vm.error) return <Failure message={vm.error} />;
  const current = vm.data;
  if (!current) return <p className="loading">Loading the virtual machine…</p>;
  const busy = operation !== undefined && (operation.state === 'pending' || operation.state === 'running');
  const toolsRunning = current.tools_state === 'RUNNING';
  return (
    <section aria-labelledby="vm-title">
      <h1 id="vm-title">{current.name}</h1>
      <p className="states">
        <span>
          Runtime state: <StateBadge state={current.runtime_state} />
          <span data-testid="runtime-state" className="visually-hidden">
            {current.runtime_state}
          </span>
        </span>
        <span>
          State: <StateBadge state={resourceState ?? current.state} />
        </span>
      </p>
      {current.error_message && <p className="error">{current.error_message}</p>}
      <div className="actions" role="group" aria-label="Power actions">
        {POWER_ACTIONS.map((item) => {
          const allowed =
            (item.when as readonly string[]).includes(current.runtime_state) &&
            (!('tools' in item) || toolsRunning);
          return (
            <button
              key={item.action}
              type="button"
              disabled={!allowed || busy || power.pending}
              aria-busy={sending === item.action || undefined}
              onClick={() => void power.run(item.action)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <p aria-live="polite" data-testid="operation">
        {sending && `${POWER_ACTIONS.find((item) => item.action === sending)?.label}: sending…`}
        {!sending && operation && (
          <>
            {operation.operation}: <StateBadge state={operation.state} />
            {operation.error_message && <span className="error"> {operation.error_message}</span>}
          </>
        )}
      </p>
      <Failure message={failure} />
      <dl className="details">
        <dt>vCPU</dt>
        <dd>
          {current.cores} ({current.cores_per_socket} per socket)
        </dd>
        <dt>RAM</dt>
        <dd>{current.ram} MiB</dd>
        <dt>VMware Tools</dt>
        <dd>{current.tools_state}</dd>
      </dl>
      <VmEndDate marketplaceResourceUuid={current.marketplace_resource_uuid} />
      <h2>Console</h2>
      {consoleUrl.web ? (
        <p>
          Web console (WebMKS) URL, for this VM only, single use and short-lived:{' '}
          <code>{consoleUrl.web}</code>
        </p>
      ) : (
        <button type="button" className="secondary" onClick={() => void openConsole('web')}>
          Get a web console ticket
        </button>
      )}
      {user.is_staff &&
        (consoleUrl.vmrc ? (
          <p>
            <a href={consoleUrl.vmrc}>Open in VMware Remote Console</a> (asks for your vCenter account)
          </p>
        ) : (
          <button type="button" className="secondary" onClick={() => void openConsole('vmrc')}>
            Get a VMRC link
          </button>
        ))}
      <VmResize
        key={`${current.cores}-${current.cores_per_socket}-${current.ram}`}
        vm={current}
        onOperation={setOperation}
      />
      <VmDisks vm={current} onOperation={setOperation} />
      <VmPorts vm={current} onOperation={setOperation} />
      <VmSnapshots vm={current} onOperation={setOperation} />
      <VmUsage uuid={current.uuid} />
      <h2>Terminate</h2>
      {terminateOrder ? (
        <p>
          Termination ordered: <Link href={`/orders/${terminateOrder}`}>follow the order</Link>.
        </p>
      ) : confirming ? (
        <div className="actions" role="group" aria-label="Confirm termination">
          <button type="button" className="danger" onClick={() => void terminate()}>
            Yes, terminate {current.name}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Terminate
        </button>
      )}
    </section>
  );
}
