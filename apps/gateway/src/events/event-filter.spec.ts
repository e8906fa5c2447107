import { ApiError } from '../rest/http-types';
import { matches, parseEventStreamQuery, resumePoint } from './event-filter';
import type { EventScope, PublicFeedEvent } from './feed-event';

const P = '11111111-1111-4111-8111-111111111111';
const C = '22222222-2222-4222-8222-222222222222';
const O = '33333333-3333-4333-8333-333333333333';
const R = '44444444-4444-4444-8444-444444444444';
const F = '55555555-5555-4555-8555-555555555555';

function event(type: PublicFeedEvent['type'], scope: Partial<EventScope> = {}): PublicFeedEvent {
  return {
    kind: 'public',
    seq: 1,
    type,
    terminalOrder: false,
    scope: { offeringUuid: F, customerUuid: C, providerUuid: C, public: false, ...scope },
    frame: () => Buffer.alloc(0),
  };
}

function fieldsOf(action: () => unknown): Record<string, string[]> {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.body as Record<string, string[]>;
    throw error;
  }
  throw new Error('no 400');
}

describe('event stream filters', () => {
  it('reads every filter and the resume point from the query', () => {
    const parsed = parseEventStreamQuery({
      order_uuid: O,
      resource_uuid: R,
      project_uuid: P,
      offering_uuid: F,
      customer_uuid: C,
      type: 'OrderStateChanged, ResourceStateChanged',
      last_event_id: '42',
    });
    expect(parsed.lastEventId).toBe(42);
    expect(parsed.filter).toMatchObject({
      orderUuid: O,
      marketplaceResourceUuid: R,
      projectUuid: P,
      offeringUuid: F,
    });
    expect([...parsed.filter.types!]).toEqual(['OrderStateChanged', 'ResourceStateChanged']);
  });

  it('names each bad parameter with its message', () => {
    expect(fieldsOf(() => parseEventStreamQuery({ project_uuid: 'x', type: 'Nope' }))).toEqual({
      project_uuid: ['Must be a valid UUID.'],
      type: [
        'Unknown event type "Nope": must be among OrderStateChanged, ResourceStateChanged, OfferingChanged, VmChanged, SyncStarted, SyncFinished, IntegrationStateChanged.',
      ],
    });
    expect(fieldsOf(() => parseEventStreamQuery({ type: 'AccessChanged' }))).toHaveProperty('type');
    expect(fieldsOf(() => parseEventStreamQuery({ last_event_id: '1.5' }))).toHaveProperty('last_event_id');
    expect(fieldsOf(() => resumePoint('-3', undefined))).toHaveProperty('Last-Event-ID');
  });

  it('prefers the Last-Event-ID header (what EventSource sends) to the query parameter', () => {
    expect(resumePoint('7', 3)).toBe(7);
    expect(resumePoint(undefined, 3)).toBe(3);
    expect(resumePoint('', undefined)).toBeUndefined();
  });

  it('matches an event only when every filter given matches', () => {
    const order = event('OrderStateChanged', { orderUuid: O, marketplaceResourceUuid: R, projectUuid: P });
    expect(matches({}, order)).toBe(true);
    expect(matches({ projectUuid: P, customerUuid: C, orderUuid: O }, order)).toBe(true);
    expect(matches({ projectUuid: P, customerUuid: F }, order)).toBe(false);
    expect(matches({ types: new Set(['ResourceStateChanged'] as const) }, order)).toBe(false);
    // An offering has no project: a project filter never matches it.
    expect(matches({ projectUuid: P }, event('OfferingChanged'))).toBe(false);
    expect(matches({ offeringUuid: F }, event('OfferingChanged'))).toBe(true);
  });
});
