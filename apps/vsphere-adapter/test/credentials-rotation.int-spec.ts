import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import type { DataSource } from 'typeorm';
import { freePort } from '../../../test/support/free-port';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createTestNats, type TestNats } from '../../../test/support/test-nats';
import { openRequestClient } from '../../../test/support/nats-requests';
import { loadVsphereAdapterConfig } from '../src/config/vsphere-adapter.config';
import { VSPHERE_ENTITIES } from '../src/entities';
import { CredentialCipher } from '../src/integration/domain/credential-cipher';
import { IntegrationRepository } from '../src/integration/repositories/integration.repository';
import { CredentialsService } from '../src/integration/services/credentials.service';
import { credentialKey, startAdapter } from './support/adapter-harness';
import { dataOf, saveAndSettle, updateIntegration, type RequestClient } from './support/requests';

jest.setTimeout(60_000);

describe('passwords at rest and key rotation', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let client: RequestClient;
  let dataSource: DataSource;
  const [oldKey, newKey] = [credentialKey('old'), credentialKey('new')];
  const sealed = async (offering: string): Promise<string> => {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const { rows } = await pg.query<{ password_sealed: string }>(
        'SELECT "password_sealed" FROM "vsphere"."integrations" WHERE "offering_uuid" = $1',
        [offering],
      );
      return rows[0].password_sealed;
    } finally {
      await pg.end();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase('adapter_keys');
    nats = await createTestNats('adapterkeys');
    client = await openRequestClient(nats.topology.namespace);
    dataSource = createServiceDataSource({
      url: db.url,
      schema: 'vsphere',
      entities: VSPHERE_ENTITIES,
      migrations: [],
      applicationName: 'test-rotation',
    });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await client?.close();
    await nats?.close();
    await db?.drop();
  });

  it('stores the password sealed with the first key, bound to its offering, and reseals it with a new key on use', async () => {
    const offering = randomUUID();
    const unreachable = `https://127.0.0.1:${await freePort()}`;
    const first = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { CREDENTIALS_KEYS: oldKey },
    });
    try {
      await saveAndSettle(client, offering, {
        backend_url: unreachable,
        username: 'svc',
        password: 'pw-rotation-1',
      });
    } finally {
      await first.close();
    }
    const before = await sealed(offering);
    expect(before.startsWith('v1.old.')).toBe(true);
    expect(before).not.toContain('pw-rotation-1');

    // The new key first, the old one kept: a sync opens the password with the old key and reseals it.
    const second = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { CREDENTIALS_KEYS: `${newKey},${oldKey}` },
    });
    try {
      const view = await saveAndSettle(client, offering, { max_cpu: 4 });
      expect(view.error_message).toMatch(/^vCenter did not answer at backend_url/); // opened: it went on to connect
    } finally {
      await second.close();
    }
    const after = await sealed(offering);
    expect(after.startsWith('v1.new.')).toBe(true);
    const onlyNew = new CredentialCipher(
      loadVsphereAdapterConfig({ CREDENTIALS_KEYS: newKey }).CREDENTIALS_KEYS,
    );
    expect(onlyNew.open(after, offering).plaintext).toBe('pw-rotation-1');
    expect(() => onlyNew.open(after, randomUUID())).toThrow(); // bound to its offering
  });

  it('says so when the key that sealed a password is gone', async () => {
    const offering = randomUUID();
    const first = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { CREDENTIALS_KEYS: oldKey },
    });
    try {
      dataOf(
        await updateIntegration(client, offering, {
          backend_url: 'https://127.0.0.1:1',
          username: 'svc',
          password: 'pw',
        }),
      );
      // Nothing to reseal; the first test's password (sealed with "new") is reported, not fatal.
      expect(await first.app.get(CredentialsService).rotateAll()).toMatchObject({
        resealed: 0,
        unreadable: [expect.any(String)],
      });
    } finally {
      await first.close();
    }
    const second = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { CREDENTIALS_KEYS: newKey },
    });
    try {
      const view = await saveAndSettle(client, offering, {});
      expect(view).toMatchObject({ state: 'ERRED' });
      expect(view.error_message).toBe(
        'The stored password cannot be read (the stored password was encrypted with key "old", which is not in CREDENTIALS_KEYS); save the password again.',
      );
    } finally {
      await second.close();
    }
  });

  it('reseals every stored password with the current key (the rotate command)', async () => {
    const offerings = [randomUUID(), randomUUID()];
    const config = (keys: string) => loadVsphereAdapterConfig({ CREDENTIALS_KEYS: keys });
    const repository = new IntegrationRepository(dataSource);
    const old = new CredentialsService(config(oldKey), repository);
    for (const offering of offerings) {
      await dataSource.query(
        `INSERT INTO "vsphere"."integrations" ("offering_uuid", "password_sealed") VALUES ($1, $2)`,
        [offering, old.seal(`pw-${offering}`, offering)],
      );
    }
    const rotating = new CredentialsService(config(`${newKey},${oldKey}`), repository);
    const result = await rotating.rotateAll();
    expect(result.resealed).toBeGreaterThanOrEqual(2);
    const onlyNew = new CredentialCipher(config(newKey).CREDENTIALS_KEYS);
    for (const offering of offerings)
      expect(onlyNew.open(await sealed(offering), offering).plaintext).toBe(`pw-${offering}`);
    expect((await rotating.rotateAll()).resealed).toBe(0);
  });

  it('refuses to store a password when no key is configured', async () => {
    const adapter = await startAdapter({ databaseUrl: db.url, namespace: nats.topology.namespace });
    try {
      expect(await updateIntegration(client, randomUUID(), { password: 'pw' })).toEqual({
        status: 'error',
        code: 400,
        fields: {
          'service_attributes.password': [
            'The vSphere adapter has no CREDENTIALS_KEYS configured, so it cannot store passwords; ask the operator.',
          ],
        },
      });
    } finally {
      await adapter.close();
    }
  });
});
