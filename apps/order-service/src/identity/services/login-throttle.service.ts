import { Injectable } from '@nestjs/common';
import {
  ANY_ADDRESS,
  ANY_USERNAME,
  LOGIN_LIMITS,
  normaliseAddress,
  retryAfterSeconds,
  usernameKey,
} from '../domain/login-throttle';
import { LoginAttemptRepository } from '../repositories/login-attempt.repository';

/**
 * Slows password guessing: every check of a password (a login, or the current password given to
 * change it) first counts an attempt for the address and username; past the limits the check is
 * refused without looking at the password, until the window ends.
 */
@Injectable()
export class LoginThrottleService {
  constructor(private readonly attempts: LoginAttemptRepository) {}

  /** Counts an attempt; returns the seconds to wait when it is one too many, or null to go on. */
  async attempt(address: string, username: string): Promise<number | null> {
    const now = new Date();
    const client = normaliseAddress(address);
    await this.attempts.purgeExpired(now, LOGIN_LIMITS.windowMs);
    const user = usernameKey(username);
    const { windowMs } = LOGIN_LIMITS;
    const counted = [
      {
        count: await this.attempts.count(client, user, now, windowMs),
        limit: LOGIN_LIMITS.perUsernameFromAddress,
      },
      { count: await this.attempts.count(ANY_ADDRESS, user, now, windowMs), limit: LOGIN_LIMITS.perUsername },
      {
        count: await this.attempts.count(client, ANY_USERNAME, now, windowMs),
        limit: LOGIN_LIMITS.perAddress,
      },
    ];
    const waits = counted
      .map(({ count, limit }) => retryAfterSeconds(count, limit, now))
      .filter((wait): wait is number => wait !== null);
    return waits.length > 0 ? Math.max(...waits) : null;
  }

  /**
   * The password was right: the username starts afresh from this address and its budget across
   * addresses gets this attempt back (only the password's holder can earn that). The address's
   * budget keeps the attempt: see LOGIN_LIMITS.
   */
  async succeeded(address: string, username: string): Promise<void> {
    await this.attempts.forgive(normaliseAddress(address), usernameKey(username), ANY_ADDRESS);
  }
}
