import { ok, refuse, type RequestReply } from '@app/contracts';
import type { EntityManager } from 'typeorm';
import type { HeldKey, IdempotencyKeyRepository, KeyId } from './repositories/idempotency-key.repository';
import { KEY_IN_FLIGHT, KEY_REUSED } from './idempotency';
import { IdempotentRequests } from './idempotent-requests';

/** The key table in memory, with the repository's rules (claim, answer under the claim, release). */
class KeysInMemory {
  readonly rows = new Map<
    string,
    { fingerprint: string; claim: string; reply: RequestReply<unknown> | null }
  >();
  private id = (key: KeyId) => `${key.userUuid}/${key.key}`;

  claim(key: KeyId, fingerprint: string, claim: string): Promise<boolean> {
    if (this.rows.has(this.id(key))) return Promise.resolve(false);
    this.rows.set(this.id(key), { fingerprint, claim, reply: null });
    return Promise.resolve(true);
  }
  getByKey(key: KeyId): Promise<HeldKey | null> {
    return Promise.resolve(this.rows.get(this.id(key)) ?? null);
  }
  answer(_tx: EntityManager, key: KeyId, claim: string, reply: RequestReply<unknown>): Promise<boolean> {
    const row = this.rows.get(this.id(key));
    if (row === undefined || row.claim !== claim || row.reply !== null) return Promise.resolve(false);
    row.reply = reply;
    return Promise.resolve(true);
  }
  release(key: KeyId, claim: string): Promise<void> {
    const row = this.rows.get(this.id(key));
    if (row !== undefined && row.claim === claim && row.reply === null) this.rows.delete(this.id(key));
    return Promise.resolve();
  }
  deleteOlderThan(): Promise<void> {
    return Promise.resolve();
  }
}

describe('IdempotentRequests', () => {
  const tx = {} as EntityManager;
  const owner = { userUuid: 'u1' };
  const request = (key: string | undefined, body: unknown = { size: 1024 }) => ({
    params: { uuid: 'vm' },
    query: {},
    body,
    meta: key === undefined ? {} : { idempotency_key: key },
  });
  let keys: KeysInMemory;
  let requests: IdempotentRequests;
  beforeEach(() => {
    keys = new KeysInMemory();
    requests = new IdempotentRequests(keys as unknown as IdempotencyKeyRepository);
  });

  it('runs a request without a key as it is, with nothing to store', async () => {
    let given: unknown = 'unset';
    expect(
      await requests.run('p', request(undefined), owner, (store) => {
        given = store;
        return Promise.resolve(ok(1));
      }),
    ).toEqual(ok(1));
    expect(given).toBeUndefined();
    expect(keys.rows.size).toBe(0);
  });

  it('replays the stored answer, refuses another body (422), and keeps nothing for a refusal', async () => {
    let runs = 0;
    const make = (store?: (t: EntityManager, r: RequestReply<unknown>) => Promise<void>) => {
      runs += 1;
      const reply = ok({ uuid: `disk-${runs}` });
      return store!(tx, reply).then(() => reply);
    };
    const first = await requests.run('p', request('k'), owner, make);
    expect(await requests.run('p', request('k'), owner, make)).toEqual(first);
    expect(await requests.run('p', request('k', { size: 2048 }), owner, make)).toEqual(
      refuse(422, KEY_REUSED),
    );
    expect(runs).toBe(1);
    expect(await requests.run('p', request('r'), owner, () => Promise.resolve(refuse(400, 'no')))).toEqual(
      refuse(400, 'no'),
    );
    expect(keys.rows.has('u1/r')).toBe(false);
  });

  it('answers 409 and lets the work fail (its transaction rolled back) when the key was taken over meanwhile', async () => {
    let committed = false;
    const reply = await requests.run('p', request('k'), owner, async (store) => {
      // The hold lapsed and another request claimed the key while this one worked.
      keys.rows.get('u1/k')!.claim = 'someone-else';
      await store!(tx, ok('made'));
      committed = true;
      return ok('made');
    });
    expect(reply).toEqual(refuse(409, KEY_IN_FLIGHT));
    expect(committed).toBe(false);
  });

  it('lets go of the key when the work throws, so the retry runs afresh', async () => {
    await expect(
      requests.run('p', request('k'), owner, () => Promise.reject(new Error('Postgres went away'))),
    ).rejects.toThrow('Postgres went away');
    expect(keys.rows.size).toBe(0);
  });
});
