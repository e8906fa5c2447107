import {
  DEFAULT_CONSUMER_POLICY,
  outcomeOfFailure,
  PermanentFailure,
  retryDelay,
  type ConsumerPolicy,
} from './consumer-policy';

const policy: ConsumerPolicy = {
  ackWaitMs: 30_000,
  backoffMs: [1_000, 5_000, 15_000],
  concurrency: 1,
  handlerTimeoutMs: 60_000,
};

describe('consumer policy', () => {
  it('backs off by attempt and repeats the last delay', () => {
    expect([1, 2, 3, 4, 9].map((count) => retryDelay(policy, count))).toEqual([
      1_000, 5_000, 15_000, 15_000, 15_000,
    ]);
  });

  it('retries an infrastructure failure however many deliveries it has taken', () => {
    expect(outcomeOfFailure(policy, 1, new Error('db down'))).toEqual({
      outcome: 'retry',
      delayMs: 1_000,
      reason: 'db down',
    });
    // A Postgres outage of 16 minutes at the capped delay is about 64 deliveries: still a retry.
    expect(outcomeOfFailure(policy, 10_000, new Error('connect ECONNREFUSED'))).toEqual({
      outcome: 'retry',
      delayMs: 15_000,
      reason: 'connect ECONNREFUSED',
    });
  });

  it("terminates only a handler's explicit permanent refusal", () => {
    expect(outcomeOfFailure(policy, 1, new PermanentFailure('unknown offering type'))).toEqual({
      outcome: 'poison',
      reason: 'unknown offering type',
    });
  });

  it('retries a message waiting on a dependency within 2 s of its return by default, however long it was away', () => {
    const delays = [1, 2, 3, 4, 5, 50, 500].map((count) => retryDelay(DEFAULT_CONSUMER_POLICY, count));
    expect(Math.max(...delays)).toBeLessThanOrEqual(2_000);
    expect(delays.at(-1)).toBe(2_000);
  });
});
