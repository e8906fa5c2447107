import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../api/client';
import type { Snapshot, Vm, VmOperation } from '../api/types';
import { describedBy, Field } from '../components/field';
import { Failure } from '../components/status';
import { useIntentKey } from '../components/use-intent-key';
import { useSession } from '../session';

interface SnapshotsProps {
  vm: Vm;
  onOperation: (operation: VmOperation) => void;
}

/** Each snapshot with its depth in the tree (parents come before their children). Pure. */
function withDepth(snapshots: readonly Snapshot[]): { snapshot: Snapshot; depth: number }[] {
  const depth = new Map<string, number>();
  return snapshots.map((snapshot) => {
    const d = snapshot.parent_uuid === null ? 0 : (depth.get(snapshot.parent_uuid) ?? 0) + 1;
    depth.set(snapshot.uuid, d);
    return { snapshot, depth: d };
  });
}

/**
 * The VM's snapshots as vCenter keeps them (a tree: a child indented under its parent), kept
 * current by VmChanged: take one (memory only while the VM runs), revert to one, delete one (its
 * children stay) or all. Each call answers with its operation; the tree after it arrives as VmChanged.
 */
export function VmSnapshots({ vm, onOperation }: SnapshotsProps) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [memory, setMemory] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const snapshots = vm.snapshots ?? [];
  const running = vm.runtime_state === 'POWERED_ON';
  const intent = useIntentKey({ vm: vm.uuid, name, description, memory: memory && running });

  const call = async (send: () => Promise<VmOperation | undefined>) => {
    setErrors({});
    setFailure(undefined);
    try {
      const operation = await send();
      if (operation) onOperation(operation);
      return true;
    } catch (refusal) {
      if (refusal instanceof ApiError && refusal.status === 400 && refusal.body.detail === undefined)
        setErrors(refusal.body as Record<string, string[]>);
      else setFailure(messageOf(refusal));
      return false;
    }
  };

  const take = async (event: FormEvent) => {
    event.preventDefault();
    const sent = await call(() =>
      api.post<VmOperation>(
        fillPath(API_PATHS.vmwareVirtualMachineCreateSnapshot, { uuid: vm.uuid }),
        { name, description, memory: memory && running },
        undefined,
        intent.key(),
      ),
    );
    if (sent) {
      intent.renew();
      setName('');
      setDescription('');
    }
  };

  return (
    <section aria-labelledby="snapshots-title">
      <h2 id="snapshots-title">Snapshots</h2>
      {vm.consolidation_needed && (
        <p className="error">vCenter reports that this VM&apos;s disks need consolidation.</p>
      )}
      {snapshots.length === 0 ? (
        <p className="hint">No snapshots.</p>
      ) : (
        <ul className="devices" aria-label="Snapshot tree">
          {withDepth(snapshots).map(({ snapshot, depth }) => (
            <li
              key={snapshot.uuid}
              className="device"
              style={{ marginInlineStart: `${depth * 1.5}rem` }}
              data-testid={`snapshot-${snapshot.name}`}
            >
              <p>
                <strong>{snapshot.name}</strong>
                {snapshot.current && ' (current)'} — {new Date(snapshot.created).toLocaleString()}
                {snapshot.memory ? ', with memory' : ', without memory'}
              </p>
              {snapshot.description && <p>{snapshot.description}</p>}
              {snapshot.warnings.map((warning) => (
                <p key={warning} className="error">
                  {warning}
                </p>
              ))}
              <div className="actions">
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    void call(() =>
                      api.post<VmOperation>(
                        fillPath(API_PATHS.vmwareSnapshotRevert, { uuid: snapshot.uuid }),
                      ),
                    )
                  }
                >
                  Revert to {snapshot.name}
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    void call(() =>
                      api.delete<VmOperation>(fillPath(API_PATHS.vmwareSnapshot, { uuid: snapshot.uuid })),
                    )
                  }
                >
                  Delete snapshot {snapshot.name}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form className="device-form" onSubmit={(event) => void take(event)} aria-label="Take a snapshot">
        <Field id="snapshot-name" label="Snapshot name" errors={errors.name}>
          <input
            {...describedBy('snapshot-name', errors.name)}
            required
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <Field id="snapshot-description" label="Description" errors={errors.description}>
          <input
            {...describedBy('snapshot-description', errors.description)}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        <Field
          id="snapshot-memory"
          label="Include the VM's memory (only while it runs)"
          errors={errors.memory}
        >
          <input
            {...describedBy('snapshot-memory', errors.memory)}
            type="checkbox"
            checked={memory && running}
            disabled={!running}
            onChange={(event) => setMemory(event.target.checked)}
          />
        </Field>
        <Failure message={failure} />
        <button type="submit">Take snapshot</button>
      </form>
      {snapshots.length > 0 && (
        <button
          type="button"
          className="danger"
          onClick={() =>
            void call(() =>
              api.post<VmOperation>(
                fillPath(API_PATHS.vmwareVirtualMachineRemoveAllSnapshots, { uuid: vm.uuid }),
              ),
            )
          }
        >
          Delete all snapshots
        </button>
      )}
    </section>
  );
}
