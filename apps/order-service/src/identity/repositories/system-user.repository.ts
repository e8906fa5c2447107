import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The system's own user, who orders what the system decides (a Terminate at an end date): a fixed
 * uuid, so a person's account of the same name is never taken for it (its creation then fails
 * loudly), and no password, so nobody logs in as it.
 */
export const SYSTEM_USER = {
  uuid: '00000000-0000-4000-8000-0000000e0d05',
  username: 'system:end-dates',
} as const;

@Injectable()
export class SystemUserRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async ensure(): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "marketplace"."users" ("uuid", "username", "full_name", "is_staff", "is_active")
       VALUES ($1, $2, 'End dates (system)', true, true) ON CONFLICT ("uuid") DO NOTHING`,
      [SYSTEM_USER.uuid, SYSTEM_USER.username],
    );
  }
}
