import { API_PATHS, fillPath, orderActionPath, type OrderAction } from '@app/contracts/http/api-paths';
import { useState } from 'react';
import { messageOf } from '../api/client';
import type { Order } from '../api/types';
import { BASIC_TYPE } from '../api/vocabulary';
import { Failure, Loading, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { useOnceAtATime } from '../components/use-once-at-a-time';
import { useFeed, useSession } from '../session';

/** The orders a provider acts on: those waiting for its review, and Basic ones it completes by hand. */
const awaitsReview = (order: Order) => order.state === 'pending-provider';
const awaitsCompletion = (order: Order) => order.state === 'executing' && order.offering_type === BASIC_TYPE;

/**
 * Orders for the offerings the user provides: approve or reject those pending the provider, mark
 * `Marketplace.Basic` ones done once the work is. The lists change as OrderStateChanged arrives; the
 * server decides who may act, and its refusal shows on the order's row.
 */
export function ProviderOrdersPage() {
  const { api } = useSession();
  const orders = useLoad('provider-orders', async (signal) => {
    const [pending, executing] = await Promise.all([
      api.get<Order[]>(`${API_PATHS.orders}?state=pending-provider&page_size=200`, signal),
      api.get<Order[]>(`${API_PATHS.orders}?state=executing&page_size=200`, signal),
    ]);
    return [...pending, ...executing];
  });
  useFeed(['OrderStateChanged'], (event) => {
    const changed = event.data as Order;
    orders.setData((current = []) => [changed, ...current.filter((order) => order.uuid !== changed.uuid)]);
  });

  const all = orders.data;
  return (
    <section aria-labelledby="provider-orders-title">
      <h1 id="provider-orders-title">Orders for your offerings</h1>
      <Failure message={orders.error} />
      {!all && !orders.error && <Loading what="the orders" />}
      {all && (
        <>
          <OrderList
            title="Waiting for your review"
            empty="No order waits for your review."
            orders={all.filter(awaitsReview)}
            actions={[
              { action: 'approve_by_provider', label: 'Approve' },
              { action: 'reject_by_provider', label: 'Reject', danger: true },
            ]}
          />
          <OrderList
            title="To complete by hand"
            empty="No Basic order waits to be completed."
            orders={all.filter(awaitsCompletion)}
            actions={[{ action: 'set_state_done', label: 'Mark done' }]}
          />
        </>
      )}
    </section>
  );
}

interface Action {
  action: OrderAction;
  label: string;
  danger?: boolean;
}

function OrderList({
  title,
  empty,
  orders,
  actions,
}: {
  title: string;
  empty: string;
  orders: Order[];
  actions: Action[];
}) {
  const id = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {orders.length === 0 && <p>{empty}</p>}
      <ul className="devices">
        {orders.map((order) => (
          <ProviderOrder key={order.uuid} order={order} actions={actions} />
        ))}
      </ul>
    </section>
  );
}

function ProviderOrder({ order, actions }: { order: Order; actions: Action[] }) {
  const { api } = useSession();
  const [failure, setFailure] = useState<string | undefined>();
  const [sent, setSent] = useState<OrderAction | undefined>();
  const name = order.resource_name || order.uuid.slice(0, 8);

  // Once accepted, the order leaves this list as its OrderStateChanged arrives: the buttons stay off.
  const act = useOnceAtATime(async (action: OrderAction) => {
    setFailure(undefined);
    setSent(action);
    try {
      await api.post(fillPath(orderActionPath(action), { uuid: order.uuid }));
    } catch (refusal) {
      setFailure(messageOf(refusal));
      setSent(undefined);
    }
  });

  return (
    <li className="device" data-order={name}>
      <p>
        {order.type} {name}: {order.offering_name} for {order.customer_name} / {order.project_name}
        {order.created_by_username && ` by ${order.created_by_username}`} <StateBadge state={order.state} />
      </p>
      <div className="actions" role="group" aria-label={`Actions on ${name}`}>
        {actions.map((item) => (
          <button
            key={item.action}
            type="button"
            className={item.danger ? 'danger' : undefined}
            disabled={sent !== undefined}
            aria-busy={(act.pending && sent === item.action) || undefined}
            onClick={() => void act.run(item.action)}
          >
            {item.label} {name}
          </button>
        ))}
      </div>
      <Failure message={failure} />
    </li>
  );
}
