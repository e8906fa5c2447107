import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('varchar')
  username!: string;

  @Column({ name: 'full_name', type: 'varchar' })
  fullName!: string;

  @Column('varchar')
  email!: string;

  @Column({ name: 'is_staff', type: 'boolean' })
  isStaff!: boolean;

  /** An inactive user's tokens are refused, as Waldur refuses them. */
  @Column({ name: 'is_active', type: 'boolean' })
  isActive!: boolean;

  @CreateDateColumn({ name: 'date_joined', type: 'timestamptz' })
  dateJoined!: Date;

  /**
   * scrypt with its salt and parameters (see domain/password-hash), null until one is set. Not
   * selected unless asked for by name, so no view or log of a user can carry it by accident.
   */
  @Column({ name: 'password_hash', type: 'text', nullable: true, select: false })
  passwordHash?: string | null;
}
