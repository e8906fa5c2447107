import { OrderDoneEvent, OrderErredEvent } from '@app/contracts';
import { buildEnvelope } from './build-envelope';
import { decodeEvent } from './decode-event';

const done = {
  orderUuid: '0b6f4c0e-3c8e-4f55-b7f4-1f7a0f9a4b21',
  marketplaceResourceUuid: '7d8f2a51-6a3e-4d1c-9e0b-2c5d4e6f7a89',
};

describe('decodeEvent', () => {
  it('accepts a valid envelope and picks the contract its type names', () => {
    const envelope = buildEnvelope(OrderDoneEvent, done, done.orderUuid);
    const decoded = decodeEvent(JSON.stringify(envelope), [OrderErredEvent, OrderDoneEvent]);
    // Published under both names (the legacy one for the version before the rename), read under the new one.
    expect(envelope.data).toHaveProperty('resourceUuid', done.marketplaceResourceUuid);
    expect(decoded).toEqual({ ok: true, envelope: { ...envelope, data: done }, contract: OrderDoneEvent });
  });

  it('reads an OrderDone an older version published (`resourceUuid`) under the new name', () => {
    const { marketplaceResourceUuid, ...rest } = done;
    const legacy = {
      ...buildEnvelope(OrderDoneEvent, done, done.orderUuid),
      data: { ...rest, resourceUuid: marketplaceResourceUuid },
    };
    const decoded = decodeEvent(JSON.stringify(legacy), [OrderDoneEvent]);
    expect(decoded).toMatchObject({ ok: true, envelope: { id: legacy.id, data: done } });
    expect(decoded.ok && decoded.envelope.data).not.toHaveProperty('resourceUuid');
  });

  it.each([
    ['a body that is not JSON', '{oops', 'body is not JSON'],
    [
      'an envelope without id',
      JSON.stringify({
        type: 'OrderDone',
        occurredAt: new Date().toISOString(),
        correlationId: 'x',
        data: done,
      }),
      'envelope invalid: id: ',
    ],
    [
      'a type no contract has',
      JSON.stringify({ ...buildEnvelope(OrderDoneEvent, done, 'x'), type: 'OrderShipped' }),
      'type is "OrderShipped", expected "OrderDone"',
    ],
    [
      'data failing its schema',
      JSON.stringify({ ...buildEnvelope(OrderDoneEvent, done, 'x'), data: { orderUuid: 1 } }),
      'OrderDone data invalid: orderUuid: ',
    ],
  ])('refuses %s with a reason', (_case, body, reason) => {
    const decoded = decodeEvent(body, [OrderDoneEvent]);
    expect(decoded.ok).toBe(false);
    expect(decoded.ok === false && decoded.reason).toContain(reason);
  });

  it('builds no envelope for data that its own consumers would refuse', () => {
    expect(() => buildEnvelope(OrderErredEvent, { ...done, errorMessage: '' }, 'x')).toThrow();
  });
});
