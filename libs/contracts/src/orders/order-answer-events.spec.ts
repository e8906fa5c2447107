import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { withLegacyNames } from '../renamed-field';
import { OrderDoneEvent, orderDoneSchema } from './order-done.event';
import { OrderErredEvent, orderErredSchema } from './order-erred.event';
import { OrderSubmittedEvent, orderSubmittedSchema } from './order-submitted.event';

const uuid = randomUUID();

// Payloads as the version before the rename published them: they wait in the streams past an upgrade.
const legacy = {
  OrderSubmitted: {
    contract: OrderSubmittedEvent,
    schema: orderSubmittedSchema,
    data: {
      orderUuid: randomUUID(),
      orderType: 'Create',
      offeringUuid: randomUUID(),
      offeringType: 'VMware.VirtualMachine',
      projectUuid: randomUUID(),
      resourceUuid: uuid,
      attributes: {},
      limits: {},
    },
  },
  OrderDone: {
    contract: OrderDoneEvent,
    schema: orderDoneSchema,
    data: { orderUuid: randomUUID(), resourceUuid: uuid },
  },
  OrderErred: {
    contract: OrderErredEvent,
    schema: orderErredSchema,
    data: { orderUuid: randomUUID(), resourceUuid: uuid, errorMessage: 'vCenter said no' },
  },
};

/** The one field the version before the rename required of each of these events. */
const previousVersion = z.looseObject({ orderUuid: z.uuid(), resourceUuid: z.uuid() });

describe.each(Object.entries(legacy))('%s', (_, { contract, schema, data }) => {
  it('reads a payload of the old version, its resourceUuid as marketplaceResourceUuid', () => {
    const parsed = schema.parse(data);
    expect(parsed.marketplaceResourceUuid).toBe(uuid);
    expect(parsed).not.toHaveProperty('resourceUuid');
  });

  it('refuses a payload with neither name, naming marketplaceResourceUuid', () => {
    const without: Record<string, unknown> = { ...data };
    delete without.resourceUuid;
    const result = schema.safeParse(without);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['marketplaceResourceUuid']);
  });

  it('is published under both names, so the version before the rename still reads it', () => {
    const published = withLegacyNames(schema.parse(data), contract.legacyNames);
    expect(published).toMatchObject({ marketplaceResourceUuid: uuid, resourceUuid: uuid });
    expect(previousVersion.safeParse(published).success).toBe(true);
    expect(schema.parse(published)).toEqual(schema.parse(data));
  });
});
