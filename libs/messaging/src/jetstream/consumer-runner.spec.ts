import { JetStreamApiError, type Consumer, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@app/platform/logging/json-logger';
import { captureLogger } from '../../../../test/support/capture-logger';
import { ConsumerRunner } from './consumer-runner';

const POLICY = { ackWaitMs: 1_000, backoffMs: [100], concurrency: 2, handlerTimeoutMs: 1_000 };
const DURABLE = { stream: 'S', durable: 'd', filter: 's.>' };
const notNow = () =>
  new JetStreamApiError({
    err_code: 10008,
    code: 503,
    description: 'JetStream system temporarily unavailable',
  });

/** A durable whose pulls find nothing, and end at once (as an expired pull does). */
const idleConsumer = {
  fetch: () =>
    Promise.resolve({
      close: () => Promise.resolve(),
      [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
    }),
} as unknown as Consumer;

/** A connection that stays up: no reconnection ever comes. */
const connection = {
  status: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
    stop: () => undefined,
  }),
  isClosed: () => false,
  isDraining: () => false,
  info: {},
} as unknown as NatsConnection;

/** A runner of no routes over `js`. */
const runnerOver = (js: JetStreamClient, logger: Logger) =>
  new ConsumerRunner({ js, connection, durable: DURABLE, routes: [], policy: POLICY, logger });

function jetStreamAnswering(answers: (() => Promise<Consumer>)[]) {
  let asked = 0;
  const js = {
    consumers: { get: () => answers[Math.min(asked++, answers.length - 1)]() },
  } as unknown as JetStreamClient;
  return { js, asked: () => asked };
}

describe('ConsumerRunner.start', () => {
  it('waits while JetStream says "not now" to the durable\'s look-up, then starts', async () => {
    const { js, asked } = jetStreamAnswering([
      () => Promise.reject(notNow()),
      () => Promise.reject(notNow()),
      () => Promise.resolve(idleConsumer),
    ]);
    const { logger, lines } = captureLogger('runner');
    const runner = runnerOver(js, logger);
    await runner.start();
    await runner.stop(0);
    expect(asked()).toBeGreaterThanOrEqual(3);
    expect(lines.filter((line) => line.msg === 'waiting for JetStream to open a durable')).toHaveLength(2);
  });

  it('fails at once on a refusal that is not "not now"', async () => {
    const { js } = jetStreamAnswering([
      () =>
        Promise.reject(
          new JetStreamApiError({ err_code: 10014, code: 404, description: 'consumer not found' }),
        ),
    ]);
    const { logger } = captureLogger('runner');
    const runner = runnerOver(js, logger);
    await expect(runner.start()).rejects.toThrow('consumer not found');
  });
});
