import 'reflect-metadata';
import { createLogger, readConfigOrExit } from '@app/platform';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { loadVsphereAdapterConfig, VSPHERE_SCHEMA } from './config/vsphere-adapter.config';
import { VSPHERE_ENTITIES } from './entities';
import { IntegrationRepository } from './integration/repositories/integration.repository';
import { CredentialsService } from './integration/services/credentials.service';

/**
 * Key rotation: put the new key first in `CREDENTIALS_KEYS` (keep the old ones after it), restart
 * the adapters, then run this once: every stored password is sealed again with the new key. The old
 * key can leave `CREDENTIALS_KEYS` afterwards. (Passwords are also resealed when a sync reads them.)
 * `node dist/apps/vsphere-adapter/apps/vsphere-adapter/src/rotate-credentials.js`
 */
async function main(): Promise<void> {
  const config = readConfigOrExit('vsphere-adapter', () => loadVsphereAdapterConfig());
  const logger = createLogger('vsphere-adapter', config.LOG_LEVEL);
  if (config.CREDENTIALS_KEYS.length === 0) {
    logger.fatal('CREDENTIALS_KEYS is not set: nothing to seal with');
    process.exit(1);
  }
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: VSPHERE_SCHEMA,
    entities: VSPHERE_ENTITIES,
    migrations: [],
    applicationName: 'vsphere-adapter-rotate-credentials',
  });
  await dataSource.initialize();
  try {
    const result = await new CredentialsService(config, new IntegrationRepository(dataSource)).rotateAll();
    logger.info(
      { ...result, key: config.CREDENTIALS_KEYS[0].id },
      'stored passwords sealed with the current key',
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  createLogger('vsphere-adapter', 'info').fatal({ err: error }, 'rotating the credentials failed');
  process.exit(1);
});
