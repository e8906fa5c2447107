import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '@app/messaging';
import { UserRepository } from '../repositories/user.repository';
import { AuthService } from './auth.service';

/**
 * The first staff user of an installation (there is nobody yet to create one through the API):
 * creates or promotes the user and gives them a token that replaces every earlier one, in one
 * transaction, so a failure leaves neither. Running it at each `npm start` therefore leaves one
 * live demo token, never a growing pile of them; like every token, it expires when left unused.
 */
export class StaffBootstrapService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly auth: AuthService,
  ) {}

  async ensureStaffToken(username: string): Promise<{ created: boolean; token: string }> {
    return this.uow.run(async (tx) => {
      const existing = await this.users.getByUsername(username, tx);
      const user =
        existing ??
        (await this.users.create(
          { uuid: randomUUID(), username, fullName: '', email: '', isStaff: true, isActive: true },
          tx,
        ));
      if (existing && (!existing.isStaff || !existing.isActive)) {
        await this.users.update(existing.uuid, { isStaff: true, isActive: true }, tx);
      }
      return { created: !existing, token: await this.auth.replaceTokens(user.uuid, tx) };
    });
  }
}
