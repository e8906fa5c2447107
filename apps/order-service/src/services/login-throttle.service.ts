import { Injectable } from '@nestjs/common';
import {
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
    const perUsername = await this.attempts.count(client, usernameKey(username), now, LOGIN_LIMITS.windowMs);
    const perAddress = await this.attempts.count(client, ANY_USERNAME, now, LOGIN_LIMITS.windowMs);
    const waits = [
      retryAfterSeconds(perUsername, LOGIN_LIMITS.perUsername, now),
      retryAfterSeconds(perAddress, LOGIN_LIMITS.perAddress, now),
    ].filter((wait): wait is number => wait !== null);
    return waits.length > 0 ? Math.max(...waits) : null;
  }

  /** The password was right: that username starts afresh, and the address gets its attempt back. */
  async succeeded(address: string, username: string): Promise<void> {
    await this.attempts.forgive(normaliseAddress(address), usernameKey(username), ANY_USERNAME);
  }
}
