import 'reflect-metadata';
import { createUserBody } from '@app/contracts';
import { createServiceDataSource, migrate } from '@app/platform/persistence/data-source';
import { orderServiceDefinition } from './order-service.definition';
import { loadOrderServiceConfig } from './config/order-service.config';
import { ApiTokenRepository } from './identity/repositories/api-token.repository';
import { UnitOfWork } from '@app/messaging';
import { UserRepository } from './identity/repositories/user.repository';
import { AuthService } from './identity/services/auth.service';
import { StaffBootstrapService } from './identity/services/staff-bootstrap.service';

/**
 * `npm run create-staff -- <username>`: creates that staff user, or gives an existing one a new
 * token that replaces (revokes) their earlier ones, against DATABASE_URL (migrating first). The
 * token is the last line of the output, so a script can take it with `tail -n 1`; it is shown once,
 * stored only as its sha256, and expires TOKEN_LIFETIME_S after its last use like every token.
 */
async function main(): Promise<void> {
  const username = createUserBody.shape.username.safeParse(process.argv[2]);
  if (!username.success) {
    process.stderr.write(
      `usage: create-staff <username>: ${username.error.issues.map((issue) => issue.message).join(' ')}\n`,
    );
    process.exit(2);
  }
  const config = loadOrderServiceConfig();
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: orderServiceDefinition.schema,
    entities: orderServiceDefinition.entities,
    migrations: orderServiceDefinition.migrations,
    applicationName: 'create-staff',
    poolSize: 2,
  });
  await dataSource.initialize();
  try {
    await migrate(dataSource, orderServiceDefinition.schema);
    const users = new UserRepository(dataSource);
    const staff = new StaffBootstrapService(
      new UnitOfWork(dataSource),
      users,
      new AuthService(new ApiTokenRepository(dataSource), config),
    );
    const { created, token } = await staff.ensureStaffToken(username.data);
    process.stdout.write(
      created
        ? `Created staff user "${username.data}". Its API token (send it as "Authorization: Token <token>"):\n`
        : `Staff user "${username.data}" exists: issued a new API token (its earlier tokens are revoked):\n`,
    );
    process.stdout.write(`${token}\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`create-staff failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
