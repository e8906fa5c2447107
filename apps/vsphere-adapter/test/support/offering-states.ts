import type { OfferingView } from '@app/contracts';
import { FeedPublisher, offeringView } from '../../../../test/support/feed-publisher';
import { runSql } from '../../../../test/support/rest-client';
import type { TestNats } from '../../../../test/support/test-nats';
import { eventually } from '../../../../test/support/virtual-machines';

/**
 * Publishes OfferingChanged for an offering in `state` (as the order service does on every change)
 * and waits until the adapter has recorded it: what opens a public offering's inventory to customers.
 */
export async function announceOffering(
  nats: TestNats,
  databaseUrl: string,
  offering: { uuid: string; customerUuid: string; state: OfferingView['state'] },
): Promise<void> {
  await new FeedPublisher(nats).offering(offeringView(offering.uuid, offering.customerUuid, offering.state));
  await eventually(
    () =>
      runSql<{ state: string }>(
        databaseUrl,
        'SELECT state FROM vsphere.offering_states WHERE offering_uuid = $1',
        [offering.uuid],
      ),
    (rows) => rows[0]?.state === offering.state,
    15_000,
    `the adapter recording offering ${offering.uuid} as ${offering.state}`,
  );
}
