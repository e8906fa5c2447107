import { fillPath, providerOfferingActionPath } from '@app/contracts/http/api-paths';
import { useRef, useState } from 'react';
import { messageOf } from '../../api/client';
import type { Integration, InventoryCounts, SyncAccepted, SyncFinished } from '../../api/types';
import { Failure, StateBadge } from '../../components/status';
import { useSession } from '../../session';
import type { IntegrationEvent } from './integration-events';
import { TableWrap } from '../../components/table-wrap';

const KINDS: readonly (keyof InventoryCounts)[] = [
  'templates',
  'clusters',
  'networks',
  'datastores',
  'folders',
];

const SYNC_WORDS = { IDLE: 'Idle', SCHEDULED: 'Scheduled', SYNCING: 'Synchronising…' } as const;

/** One line of the live log: what the adapter said, in words. */
function describe(event: IntegrationEvent): string {
  switch (event.type) {
    case 'SyncStarted':
      return 'Synchronisation started.';
    case 'SyncFinished':
      return finished(event.data);
    case 'IntegrationStateChanged':
      return `Integration ${event.data.previousState} → ${event.data.state}${
        event.data.errorMessage ? `: ${event.data.errorMessage}` : '.'
      }`;
  }
}

function finished(sync: SyncFinished): string {
  const seconds = (sync.durationMs / 1000).toFixed(1);
  if (sync.outcome === 'ERRED') return `Synchronisation failed after ${seconds} s: ${sync.errorMessage}`;
  const changed = KINDS.map((kind) => {
    const { created, updated, removed } = sync.changes[kind];
    return created + updated + removed > 0 ? `${kind} +${created} ~${updated} −${removed}` : '';
  }).filter(Boolean);
  return `Synchronisation finished in ${seconds} s: ${KINDS.map((k) => `${sync.counts[k]} ${k}`).join(', ')}${
    changed.length > 0 ? ` (changed: ${changed.join('; ')})` : ' (no changes)'
  }.`;
}

/**
 * Synchronise now (`POST .../sync/`, 202): the progress and the counts arrive as SyncStarted,
 * SyncFinished and IntegrationStateChanged over the session's event stream; nothing is polled.
 */
export function IntegrationSync({
  offeringUuid,
  integration,
  events,
  onAnswer,
}: {
  offeringUuid: string;
  integration: Integration | null;
  events: IntegrationEvent[];
  onAnswer: (accepted: SyncAccepted) => void;
}) {
  const { api } = useSession();
  const latest = useRef(events);
  latest.current = events;
  const [failure, setFailure] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  const sync = async () => {
    setFailure(undefined);
    setSending(true);
    const before = latest.current.at(-1);
    try {
      const accepted = await api.post<SyncAccepted>(
        fillPath(providerOfferingActionPath('sync'), { uuid: offeringUuid }),
      );
      // An event that came first is newer than this answer (SyncFinished may beat it): it stands.
      if (latest.current.at(-1) === before) onAnswer(accepted);
    } catch (refusal) {
      setFailure(messageOf(refusal));
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby="sync-title">
      <h2 id="sync-title">Synchronisation</h2>
      <div className="actions">
        <button type="button" onClick={() => void sync()} disabled={sending || integration === null}>
          Synchronise now
        </button>
        <span role="status" data-testid="sync-state">
          {integration ? SYNC_WORDS[integration.sync_state] : 'Save the credentials first.'}
        </span>
      </div>
      <Failure message={failure} />
      {integration && (
        <>
          <dl className="details">
            <dt>Last started</dt>
            <dd>{integration.last_sync_started ?? 'never'}</dd>
            <dt>Last finished</dt>
            <dd>{integration.last_sync_finished ?? 'never'}</dd>
            <dt>Last success</dt>
            <dd>{integration.last_sync_success ?? 'never'}</dd>
            {integration.last_sync_error && (
              <>
                <dt>Last error</dt>
                <dd className="error">{integration.last_sync_error}</dd>
              </>
            )}
          </dl>
          <TableWrap label="Imported from vCenter">
            <table data-testid="sync-counts">
              <caption>Imported from vCenter</caption>
              <thead>
                <tr>
                  {KINDS.map((kind) => (
                    <th key={kind} scope="col">
                      {kind}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  {KINDS.map((kind) => (
                    <td key={kind} data-count={kind}>
                      {integration.counts[kind]}
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          </TableWrap>
          {integration.skipped.length > 0 && (
            <>
              <h3>Left out</h3>
              <ul>
                {integration.skipped.map((item) => (
                  <li key={`${item.kind}:${item.backend_id}`}>
                    {item.kind} {item.name}: {item.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <h3 id="sync-log-title">Live progress</h3>
      {events.length === 0 && <p>Nothing reported since this page opened.</p>}
      <ol className="timeline" aria-labelledby="sync-log-title" aria-live="polite" data-testid="sync-log">
        {events.map((event, index) => (
          <li key={index} data-event={event.type}>
            {event.type === 'SyncFinished' && <StateBadge state={event.data.outcome} />} {describe(event)}
          </li>
        ))}
      </ol>
    </section>
  );
}
