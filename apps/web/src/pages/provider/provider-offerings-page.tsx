import { API_PATHS, fillPath, providerOfferingActionPath } from '@app/contracts/http/api-paths';
import { ApiError } from '../../api/client';
import type { Integration, Offering } from '../../api/types';
import { VMWARE_VM_TYPE } from '../../api/vocabulary';
import { Failure, Loading, StateBadge } from '../../components/status';
import { useLoad } from '../../components/use-load';
import { Link } from '../../router';
import { useFeed, useSession } from '../../session';
import { INTEGRATION_EVENTS, integrationEvent } from './integration-events';
import { TableWrap } from '../../components/table-wrap';

interface Row {
  offering: Offering;
  /** The vCenter connection of a vSphere offering; null while none was saved yet. */
  integration?: Integration | null;
}

/** Null for an offering whose integration was never saved: the API answers 404. */
async function integrationOrNone(load: Promise<Integration>): Promise<Integration | null> {
  try {
    return await load;
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404) return null;
    throw failure;
  }
}

/**
 * The offerings of the providers the user owns (staff: all), each with its state and, for vSphere,
 * its integration's state and error — kept current by OfferingChanged and the adapter's events.
 */
export default function ProviderOfferingsPage() {
  const { api } = useSession();
  const rows = useLoad('provider-offerings', async (signal) => {
    const offerings = await api.get<Offering[]>(`${API_PATHS.providerOfferings}?page_size=200`, signal);
    return Promise.all(
      offerings.map(async (offering): Promise<Row> =>
        offering.type !== VMWARE_VM_TYPE
          ? { offering }
          : {
              offering,
              integration: await integrationOrNone(
                api.get<Integration>(
                  fillPath(providerOfferingActionPath('integration'), { uuid: offering.uuid }),
                  signal,
                ),
              ),
            },
      ),
    );
  });
  useFeed(['OfferingChanged'], (event) => {
    const changed = event.data as Offering;
    rows.setData((current) =>
      current?.map((row) =>
        row.offering.uuid === changed.uuid ? { ...row, offering: { ...row.offering, ...changed } } : row,
      ),
    );
  });
  useFeed(INTEGRATION_EVENTS, (event) => {
    const known = integrationEvent(event);
    if (!known) return;
    rows.setData((current) =>
      current?.map((row) =>
        row.offering.uuid === known.data.offeringUuid ? { ...row, integration: known.data.integration } : row,
      ),
    );
  });

  return (
    <section aria-labelledby="provider-offerings-title">
      <h1 id="provider-offerings-title">Your offerings</h1>
      <Failure message={rows.error} />
      {!rows.data && !rows.error && <Loading what="your offerings" />}
      {rows.data?.length === 0 && <p>You provide no offerings.</p>}
      {rows.data && rows.data.length > 0 && (
        <TableWrap label="Offerings you provide">
          <table>
            <caption className="visually-hidden">Offerings you provide</caption>
            <thead>
              <tr>
                <th scope="col">Offering</th>
                <th scope="col">Provider</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col">Integration</th>
              </tr>
            </thead>
            <tbody>
              {rows.data.map(({ offering, integration }) => (
                <tr key={offering.uuid} data-offering={offering.name}>
                  <td>
                    <Link href={`/provider/offerings/${offering.uuid}`}>{offering.name}</Link>
                  </td>
                  <td>{offering.customer_name}</td>
                  <td>{offering.type}</td>
                  <td>
                    <StateBadge state={offering.state} />
                  </td>
                  <td>
                    {integration === undefined ? (
                      '—'
                    ) : integration === null ? (
                      'Not connected'
                    ) : (
                      <>
                        <StateBadge state={integration.state} />
                        {integration.error_message && <p className="error">{integration.error_message}</p>}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
