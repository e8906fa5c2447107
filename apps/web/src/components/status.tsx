/** A state as a badge: its word, coloured by what it means. */
export function StateBadge({ state }: { state: string }) {
  const tone = /done|OK|POWERED_ON|Active/i.test(state)
    ? 'good'
    : /erred|rejected|canceled|Terminated/i.test(state)
      ? 'bad'
      : /POWERED_OFF|SUSPENDED|Paused/i.test(state)
        ? 'idle'
        : 'busy';
  return <span className={`badge badge-${tone}`}>{state}</span>;
}

export function Failure({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}
