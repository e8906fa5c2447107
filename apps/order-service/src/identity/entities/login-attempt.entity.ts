import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Login attempts from one address (or from any: `*`), for one username (by its sha256) or for all
 * of them (the hash of the empty string), counted in a fixed window. Postgres rather than the gateway's memory: the
 * gateway is stateless and runs as several instances, and a count split between them, or lost on
 * a restart, would let the guessing go on.
 */
@Entity({ name: 'login_attempts' })
export class LoginAttemptEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  address!: string;

  @PrimaryColumn({ name: 'username_hash', type: 'char', length: 64 })
  usernameHash!: string;

  @Column('integer')
  attempts!: number;

  @Column({ name: 'window_started', type: 'timestamptz' })
  windowStarted!: Date;
}
