import { randomUUID } from 'node:crypto';
import { orderDoneSchema } from './order-done.event';
import { orderErredSchema } from './order-erred.event';
import { orderSubmittedSchema } from './order-submitted.event';

const uuid = randomUUID();

// Payloads as the version before the rename published them: they wait in the streams past an upgrade.
const legacy = {
  OrderSubmitted: {
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
  OrderDone: { schema: orderDoneSchema, data: { orderUuid: randomUUID(), resourceUuid: uuid } },
  OrderErred: {
    schema: orderErredSchema,
    data: { orderUuid: randomUUID(), resourceUuid: uuid, errorMessage: 'vCenter said no' },
  },
};

describe.each(Object.entries(legacy))('%s', (_, { schema, data }) => {
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
});
