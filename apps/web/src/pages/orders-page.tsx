import { API_PATHS } from '@app/contracts/http/api-paths';
import type { Order } from '../api/types';
import { Failure, Loading, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { useFeed, useSession } from '../session';
import { TableWrap } from '../components/table-wrap';

const newestFirst = (a: Order, b: Order) => b.created.localeCompare(a.created);

/** The project's orders, newest first, each change applied as its OrderStateChanged arrives. */
export function OrdersPage() {
  const { api, project } = useSession();
  const projectUuid = project?.uuid ?? '';
  const orders = useLoad(`orders-${projectUuid}`, (signal) =>
    projectUuid
      ? api.get<Order[]>(`${API_PATHS.orders}?project_uuid=${projectUuid}&page_size=100`, signal)
      : Promise.resolve([]),
  );
  useFeed(['OrderStateChanged'], (event) => {
    const changed = event.data as Order;
    if (changed.project_uuid !== projectUuid) return;
    orders.setData((current = []) => [changed, ...current.filter((order) => order.uuid !== changed.uuid)]);
  });
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">Orders{project && ` in ${project.name}`}</h1>
      <Failure message={orders.error} />
      {!orders.data && !orders.error && <Loading what="the orders" />}
      {orders.data?.length === 0 && <p>No orders in this project yet.</p>}
      {orders.data && orders.data.length > 0 && (
        <TableWrap label="Orders of the project">
          <table>
            <caption className="visually-hidden">Orders of the project</caption>
            <thead>
              <tr>
                <th scope="col">Resource</th>
                <th scope="col">Type</th>
                <th scope="col">Offering</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {[...orders.data].sort(newestFirst).map((order) => (
                <tr key={order.uuid}>
                  <td>
                    <Link href={`/orders/${order.uuid}`}>
                      {order.resource_name || order.uuid.slice(0, 8)}
                    </Link>
                  </td>
                  <td>{order.type}</td>
                  <td>{order.offering_name}</td>
                  <td>
                    <StateBadge state={order.state} />
                  </td>
                  <td>{new Date(order.created).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
