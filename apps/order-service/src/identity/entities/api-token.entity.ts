import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An API token. Only the sha256 of its key is stored: a database dump yields no usable token. */
@Entity({ name: 'api_tokens' })
export class ApiTokenEntity {
  @PrimaryColumn({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  /** Every token expires; each use moves this forward by the configured lifetime (sliding, as Waldur). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
