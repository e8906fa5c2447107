import { Inject, Injectable } from '@nestjs/common';
import { DataSource, LessThanOrEqual } from 'typeorm';
import type { AttemptCount } from '../domain/login-throttle';
import { LoginAttemptEntity } from '../entities/login-attempt.entity';

/** Login attempt counters per (address or `*`, username key or the key of all usernames), in fixed windows. */
@Injectable()
export class LoginAttemptRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Counts one attempt and returns the counter after it, in one statement: concurrent attempts each
   * see their own number, so none slips past the limit. A window that ended starts over at 1.
   */
  async count(address: string, usernameHash: string, now: Date, windowMs: number): Promise<AttemptCount> {
    const expired = new Date(now.getTime() - windowMs);
    const rows: { attempts: number; window_started: Date }[] = await this.dataSource.query(
      `INSERT INTO marketplace.login_attempts AS a (address, username_hash, attempts, window_started)
       VALUES ($1, $2, 1, $3)
       ON CONFLICT (address, username_hash) DO UPDATE SET
         attempts = CASE WHEN a.window_started <= $4 THEN 1 ELSE a.attempts + 1 END,
         window_started = CASE WHEN a.window_started <= $4 THEN $3 ELSE a.window_started END
       RETURNING attempts, window_started`,
      [address, usernameHash, now, expired],
    );
    return { attempts: rows[0].attempts, windowStarted: new Date(rows[0].window_started) };
  }

  /**
   * A successful login: the (address, username) counter starts afresh, and the username's counter
   * across addresses (kept under `anyAddress`) gets its attempt back.
   */
  async forgive(address: string, usernameHash: string, anyAddress: string): Promise<void> {
    await this.dataSource.getRepository(LoginAttemptEntity).delete({ address, usernameHash });
    await this.dataSource.query(
      `UPDATE marketplace.login_attempts SET attempts = attempts - 1
       WHERE address = $1 AND username_hash = $2 AND attempts > 0`,
      [anyAddress, usernameHash],
    );
  }

  /** Drops counters whose window has ended, so addresses that tried once do not pile up. */
  async purgeExpired(now: Date, windowMs: number): Promise<void> {
    await this.dataSource
      .getRepository(LoginAttemptEntity)
      .delete({ windowStarted: LessThanOrEqual(new Date(now.getTime() - windowMs)) });
  }
}
