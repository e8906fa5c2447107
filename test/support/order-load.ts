/** One order submission as the load generator saw it. */
export interface OrderAttempt {
  /** When the create request left (ms since epoch). */
  sentAt: number;
  /** When its answer (or failure) came back; undefined while it waits. */
  settledAt?: number;
  /**
   * accepted: an ok reply carrying the order's uuid. refused: an answer that is not ok.
   * failed: no answer (timeout, no responders, connection down): the order may or may not exist.
   */
  outcome: 'waiting' | 'accepted' | 'refused' | 'failed';
  orderUuid?: string;
  detail?: string;
}

/** Creates one order and returns its uuid, or throws with the reason it was not accepted. */
export type SubmitOrder = () => Promise<
  { accepted: true; uuid: string } | { accepted: false; detail: string }
>;

/**
 * Submits orders at a steady rate, without waiting for one answer before sending the next (a
 * service that is away must not slow the load down), and records what each submission got.
 */
export class OrderLoad {
  readonly attempts: OrderAttempt[] = [];
  private timer?: NodeJS.Timeout;
  private readonly waiting = new Set<Promise<void>>();

  constructor(
    private readonly submit: SubmitOrder,
    private readonly perSecond: number,
  ) {}

  /** Sends at the steady rate until stopped, or until `limit` orders have been sent. */
  start(limit = Number.POSITIVE_INFINITY): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        if (this.attempts.length < limit) void this.send();
        else clearInterval(this.timer);
      },
      Math.max(1, Math.round(1000 / this.perSecond)),
    );
  }

  /** Sends `count` orders at once, besides the steady rate, and waits for their answers. */
  async burst(count: number): Promise<void> {
    await Promise.allSettled(Array.from({ length: count }, () => this.send()));
  }

  /** Stops sending and waits for the answers still due. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.waiting]);
  }

  /** Orders accepted with sentAt in [from, to). */
  accepted(from = 0, to = Number.POSITIVE_INFINITY): string[] {
    return this.attempts
      .filter((a) => a.outcome === 'accepted' && a.sentAt >= from && a.sentAt < to)
      .map((a) => a.orderUuid!);
  }

  /** Counts of outcomes for attempts sent in [from, to). */
  outcomes(from = 0, to = Number.POSITIVE_INFINITY): Record<OrderAttempt['outcome'], number> {
    const counts = { waiting: 0, accepted: 0, refused: 0, failed: 0 };
    for (const attempt of this.attempts)
      if (attempt.sentAt >= from && attempt.sentAt < to) counts[attempt.outcome]++;
    return counts;
  }

  /** The most frequent reason among attempts sent in [from, to) that were not accepted. */
  commonFailure(from = 0, to = Number.POSITIVE_INFINITY): string | undefined {
    const counts = new Map<string, number>();
    for (const attempt of this.attempts)
      if (attempt.detail && attempt.sentAt >= from && attempt.sentAt < to)
        counts.set(attempt.detail, (counts.get(attempt.detail) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  }

  private send(): Promise<void> {
    const attempt: OrderAttempt = { sentAt: Date.now(), outcome: 'waiting' };
    this.attempts.push(attempt);
    const task = this.submit()
      .then(
        (answer) => {
          if (answer.accepted) {
            attempt.outcome = 'accepted';
            attempt.orderUuid = answer.uuid;
          } else {
            attempt.outcome = 'refused';
            attempt.detail = answer.detail;
          }
        },
        (error: unknown) => {
          attempt.outcome = 'failed';
          attempt.detail = error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error);
        },
      )
      .finally(() => {
        attempt.settledAt = Date.now();
        this.waiting.delete(task);
      });
    this.waiting.add(task);
    return task;
  }
}
