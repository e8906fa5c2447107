import { JetStreamApiError } from '@nats-io/jetstream';
import { InvalidSubjectError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { classifyPublishFailure } from './publish-failure';

describe('classifyPublishFailure', () => {
  it.each([
    ['a bad subject', new InvalidSubjectError('a b'), 'unpublishable'],
    ['a timed-out publish', new TimeoutError(), 'unavailable'],
    [
      'a request error caused by a timeout',
      new RequestError('timeout', { cause: new TimeoutError() }),
      'unavailable',
    ],
    [
      'JetStream without a leader (10008)',
      new JetStreamApiError({
        err_code: 10008,
        code: 503,
        description: 'JetStream system temporarily unavailable',
      }),
      'unavailable',
    ],
    [
      'a message over the maximum size (10054)',
      new JetStreamApiError({
        err_code: 10054,
        code: 400,
        description: 'message size exceeds maximum allowed',
      }),
      'rejected',
    ],
    ['a connection reset', new Error('connection reset'), 'transient'],
  ])('%s: %s', (_, error, expected) => {
    expect(classifyPublishFailure(error)).toBe(expected);
  });
});
