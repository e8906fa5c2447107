import { JetStreamApiError } from '@nats-io/jetstream';
import { RequestError, TimeoutError } from '@nats-io/transport-node';
import { isJetStreamUnavailable, untilJetStreamAnswers } from './until-jetstream-answers';

const apiError = (errCode: number, code: number, description: string) =>
  new JetStreamApiError({ err_code: errCode, code, description });

describe('isJetStreamUnavailable', () => {
  it.each([
    ['a timed-out request', new TimeoutError(), true],
    ['a request error caused by a timeout', new RequestError('timeout', { cause: new TimeoutError() }), true],
    ['no metadata leader (10008)', apiError(10008, 503, 'JetStream system temporarily unavailable'), true],
    [
      'too few nodes up for the replicas (10005)',
      apiError(10005, 400, 'no suitable peers for placement'),
      true,
    ],
    ['stream not found (10059)', apiError(10059, 404, 'stream not found'), false],
    [
      'a refused replica count (10074)',
      apiError(10074, 500, 'replicas > 1 not supported in non-clustered mode'),
      false,
    ],
    ['any other error', new Error('permissions violation'), false],
  ])('%s: %s', (_, error, expected) => {
    expect(isJetStreamUnavailable(error)).toBe(expected);
  });
});

describe('untilJetStreamAnswers', () => {
  it('tries again while JetStream is unavailable and returns the first answer', async () => {
    const waits: number[] = [];
    let calls = 0;
    const answer = await untilJetStreamAnswers(
      () => {
        calls += 1;
        return calls < 3 ? Promise.reject(new TimeoutError()) : Promise.resolve('created');
      },
      (_, delayMs) => waits.push(delayMs),
      1,
    );
    expect({ answer, calls, waits }).toEqual({ answer: 'created', calls: 3, waits: [1, 1] });
  });

  it('fails at once on a refusal that waiting cannot cure', async () => {
    let calls = 0;
    const refusal = apiError(10074, 500, 'replicas > 1 not supported in non-clustered mode');
    await expect(
      untilJetStreamAnswers(
        () => {
          calls += 1;
          return Promise.reject(refusal);
        },
        () => undefined,
      ),
    ).rejects.toBe(refusal);
    expect(calls).toBe(1);
  });
});
