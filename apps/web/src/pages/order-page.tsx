import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { useRef, useState } from 'react';
import type { Order } from '../api/types';
import { TERMINAL_ORDER_STATES, VMWARE_VM_TYPE } from '../api/vocabulary';
import { Failure, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { useFeed, useSession } from '../session';

interface Step {
  state: string;
  at: string;
}

/**
 * One order: its details and the timeline of its states — the state it had when the page opened,
 * then each OrderStateChanged as it arrives, so the order is seen reaching done without a reload.
 */
export function OrderPage({ uuid }: { uuid: string }) {
  const { api } = useSession();
  const [steps, setSteps] = useState<Step[]>([]);
  // An event may overtake the page's GET: the newer of the two is the order.
  const streamed = useRef<Order | undefined>(undefined);
  const order = useLoad(`order-${uuid}`, async (signal) => {
    const read = await api.get<Order>(fillPath(API_PATHS.order, { uuid }), signal);
    const found = streamed.current && streamed.current.modified > read.modified ? streamed.current : read;
    setSteps([
      { state: 'created', at: found.created },
      ...(found.state === 'executing' || TERMINAL_ORDER_STATES.includes(found.state)
        ? [{ state: found.state, at: found.modified }]
        : []),
    ]);
    return found;
  });
  useFeed(['OrderStateChanged'], (event) => {
    const changed = event.data as Order;
    if (changed.uuid !== uuid) return;
    streamed.current = changed;
    order.setData(() => changed);
    setSteps((current) =>
      current.some((step) => step.state === changed.state)
        ? current
        : [...current, { state: changed.state, at: changed.modified }],
    );
  });
  if (order.error) return <Failure message={order.error} />;
  const current = order.data;
  if (!current) return <p className="loading">Loading the order…</p>;
  const vmReady =
    current.state === 'done' &&
    current.type === 'Create' &&
    current.offering_type === VMWARE_VM_TYPE &&
    current.resource_uuid;
  return (
    <section aria-labelledby="order-title">
      <h1 id="order-title">
        {current.type} order: {current.resource_name}
      </h1>
      <p>
        State: <StateBadge state={current.state} />{' '}
        <span data-testid="order-state" className="visually-hidden">
          {current.state}
        </span>
      </p>
      {current.error_message && (
        <p className="error" role="alert">
          {current.error_message}
        </p>
      )}
      <dl className="details">
        <dt>Offering</dt>
        <dd>{current.offering_name}</dd>
        <dt>Project</dt>
        <dd>
          {current.customer_name} / {current.project_name}
        </dd>
        <dt>Plan</dt>
        <dd>{current.plan_name ?? '—'}</dd>
        <dt>Monthly cost</dt>
        <dd>{current.cost ?? '—'}</dd>
        <dt>Limits</dt>
        <dd>
          {Object.entries(current.limits)
            .map(([name, value]) => `${name} ${value}`)
            .join(', ') || '—'}
        </dd>
      </dl>
      <h2>Timeline</h2>
      <ol className="timeline" aria-live="polite">
        {steps.map((step) => (
          <li key={step.state}>
            <StateBadge state={step.state} />{' '}
            <time dateTime={step.at}>{new Date(step.at).toLocaleTimeString()}</time>
          </li>
        ))}
      </ol>
      {vmReady && (
        <p>
          <Link href={`/vms/${current.resource_uuid}`} className="button">
            Open the virtual machine
          </Link>
        </p>
      )}
    </section>
  );
}
