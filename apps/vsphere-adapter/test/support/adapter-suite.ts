import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { createTestNats, type TestNats } from '../../../../test/support/test-nats';
import { openRequestClient } from '../../../../test/support/nats-requests';
import type { StartVcsimOptions } from '../../../../test/support/vcsim';
import { startVcsimWithFront, type VcsimWithFront } from '../../../../test/support/vcsim-front';
import { credentialKey, startAdapter, type AdapterInstance } from './adapter-harness';
import type { RequestClient } from './requests';
import { VcsimLibrary } from './vcsim-library';

/** What an adapter integration suite runs against, each part its own. */
export interface AdapterSuite {
  sim: VcsimWithFront;
  db: TestDatabase;
  nats: TestNats;
  adapter: AdapterInstance;
  client: RequestClient;
  library: VcsimLibrary;
}

/**
 * Starts a suite's world: vcsim (with `vcsim`) behind the front, a fresh database and a NATS
 * namespace named after the suite, the adapter on them (a fresh `CREDENTIALS_KEYS`, then `env` on
 * top), a request client and vcsim's Content Library. If a step fails, what had started is stopped
 * before the error is thrown, as the suite's `afterAll` would have done.
 */
export async function startAdapterSuite(options: {
  database: string;
  namespace: string;
  vcsim?: StartVcsimOptions;
  env?: Record<string, string>;
}): Promise<AdapterSuite> {
  const parts: Partial<AdapterSuite> = {};
  try {
    parts.sim = await startVcsimWithFront(options.vcsim);
    parts.db = await createTestDatabase(options.database);
    parts.nats = await createTestNats(options.namespace);
    parts.adapter = await startAdapter({
      databaseUrl: parts.db.url,
      namespace: parts.nats.topology.namespace,
      env: { CREDENTIALS_KEYS: credentialKey(), ...options.env },
    });
    parts.client = await openRequestClient(parts.nats.topology.namespace);
    parts.library = await VcsimLibrary.open(parts.sim);
    return parts as AdapterSuite;
  } catch (error) {
    await stopAdapterSuite(parts);
    throw error;
  }
}

/**
 * Stops the parts given, the adapter first and the database last; a part never started is
 * skipped. Give the suite's current adapter where a test restarted it.
 */
export async function stopAdapterSuite(parts: Partial<AdapterSuite>): Promise<void> {
  await parts.adapter?.close();
  await parts.client?.close();
  await parts.library?.close();
  await parts.sim?.stop();
  await parts.nats?.close();
  await parts.db?.drop();
}
