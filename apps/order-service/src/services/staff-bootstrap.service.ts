import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { UserRepository } from '../repositories/user.repository';
import { AuthService } from './auth.service';

/**
 * The first staff user of an installation (there is nobody yet to create one through the API):
 * creates or promotes the user and issues a token in one transaction, so a failure leaves neither.
 */
export class StaffBootstrapService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserRepository,
    private readonly auth: AuthService,
  ) {}

  async ensureStaffToken(username: string): Promise<{ created: boolean; token: string }> {
    return this.dataSource.transaction(async (manager) => {
      const existing = await this.users.getByUsername(username, manager);
      const user =
        existing ??
        (await this.users.create(
          { uuid: randomUUID(), username, fullName: '', email: '', isStaff: true, isActive: true },
          manager,
        ));
      if (existing && (!existing.isStaff || !existing.isActive)) {
        await this.users.update(existing.uuid, { isStaff: true, isActive: true }, manager);
      }
      return { created: !existing, token: await this.auth.issue(user.uuid, null, manager) };
    });
  }
}
