import { randomUUID } from 'node:crypto';
import { refuse, type RequestMeta, type RequestReply } from '@app/contracts';
import type { IdempotencyKeyRepository } from './repositories/idempotency-key.repository';
import type { Transaction } from '../repositories/unit-of-work';
import {
  IDEMPOTENCY_HOLD_MS,
  IDEMPOTENCY_KEY_KEPT_MS,
  judgeHeldKey,
  KEY_IN_FLIGHT,
  KEY_REUSED,
  requestFingerprint,
} from './idempotency';

/** Stores a request's first answer in the transaction of what it made: the work calls it once, there. */
export type StoreAnswer = (tx: Transaction, reply: RequestReply<unknown>) => Promise<void>;

/** What `run` needs of a request: its parts (the fingerprint) and the gateway's meta (key, deadline). */
export interface KeyedRequest {
  params: unknown;
  query: unknown;
  body: unknown;
  meta?: RequestMeta;
}

/** The key was taken over while the work ran (its hold lapsed): the work must not commit. */
class KeyTakenOverError extends Error {}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * The IETF httpapi draft's `Idempotency-Key` for a creating request, per user: the same key with
 * the same request answers the first answer (status and body); with another request, 422; while
 * the first is still being processed, 409. Only an answer stored with what it made is kept: a
 * refusal or a failure lets the key go, so the retry of a request that made nothing runs afresh.
 * Each service keeps its keys in its own schema (the repository it is given).
 */
export class IdempotentRequests {
  private lastSweep = 0;

  constructor(private readonly keys: IdempotencyKeyRepository) {}

  /**
   * Runs `work` once per (user, key): `work` gets `store` only when the request carries a key, and
   * must call it inside the transaction that commits what it makes.
   */
  async run<T>(
    pattern: string,
    request: KeyedRequest,
    owner: { userUuid: string },
    work: (store?: StoreAnswer) => Promise<RequestReply<T>>,
  ): Promise<RequestReply<T>> {
    const key = request.meta?.idempotency_key;
    if (key === undefined) return work();
    this.sweepNowAndThen();
    const id = { userUuid: owner.userUuid, key };
    const fingerprint = requestFingerprint(pattern, request);
    const claim = randomUUID();
    const deadline = request.meta?.deadline;
    // Held until the gateway stops waiting: by then this request has committed or never will.
    const holdMs = deadline === undefined ? IDEMPOTENCY_HOLD_MS : Math.max(1_000, deadline - Date.now());
    if (!(await this.keys.claim(id, fingerprint, claim, holdMs, IDEMPOTENCY_KEY_KEPT_MS))) {
      const held = await this.keys.getByKey(id);
      // Let go between the two statements: its request made nothing, and the client may retry.
      if (!held) return refuse(409, KEY_IN_FLIGHT);
      const verdict = judgeHeldKey(
        { fingerprint: held.fingerprint, answered: held.reply !== null },
        fingerprint,
      );
      if (verdict === 'replay') return held.reply as RequestReply<T>;
      return verdict === 'reused' ? refuse(422, KEY_REUSED) : refuse(409, KEY_IN_FLIGHT);
    }
    let stored = false;
    const store: StoreAnswer = async (tx, reply) => {
      if (!(await this.keys.answer(tx, id, claim, reply))) throw new KeyTakenOverError();
      stored = true;
    };
    try {
      const reply = await work(store);
      if (!stored) await this.keys.release(id, claim);
      return reply;
    } catch (error) {
      await this.keys.release(id, claim).catch(() => undefined);
      if (error instanceof KeyTakenOverError) return refuse(409, KEY_IN_FLIGHT);
      throw error;
    }
  }

  /** Keys are kept 24 h; older ones are dropped about once an hour, off the request's path. */
  private sweepNowAndThen(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    void this.keys.deleteOlderThan(IDEMPOTENCY_KEY_KEPT_MS).catch(() => undefined);
  }
}
