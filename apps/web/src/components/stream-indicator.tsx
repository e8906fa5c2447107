import { useSession } from '../session';

const LABELS = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
} as const;

/** Whether changes arrive live: the state of the session's event stream, announced politely. */
export function StreamIndicator() {
  const { streamStatus } = useSession();
  return (
    <span
      className={`stream stream-${streamStatus}`}
      role="status"
      aria-live="polite"
      data-testid="stream-status"
    >
      <span className="dot" aria-hidden="true" />
      {LABELS[streamStatus]}
    </span>
  );
}
