import { outcomeOfFailure, retryDelay, type ConsumerPolicy } from './consumer-policy';

const policy: ConsumerPolicy = {
  ackWaitMs: 30_000,
  maxDeliver: 4,
  backoffMs: [1_000, 5_000, 15_000],
  concurrency: 1,
};

describe('consumer policy', () => {
  it('backs off by attempt and repeats the last delay', () => {
    expect([1, 2, 3, 4, 9].map((count) => retryDelay(policy, count))).toEqual([
      1_000, 5_000, 15_000, 15_000, 15_000,
    ]);
  });

  it('retries a failure while deliveries remain, then gives up with the reason', () => {
    expect(outcomeOfFailure(policy, 1, new Error('db down'))).toEqual({
      outcome: 'retry',
      delayMs: 1_000,
      reason: 'db down',
    });
    expect(outcomeOfFailure(policy, 4, new Error('db down'))).toEqual({
      outcome: 'poison',
      reason: 'gave up after 4 deliveries: db down',
    });
  });
});
