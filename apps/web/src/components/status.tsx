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

/** Shown while a page's first answer is on its way: never an empty list that is not known yet. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}
