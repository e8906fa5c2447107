import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { CustomerRole } from '@app/contracts';

/** A user's role in a customer (CUSTOMER.OWNER). */
@Entity({ name: 'customer_permissions' })
export class CustomerPermissionEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'customer_uuid', type: 'uuid' })
  customerUuid!: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid!: string;

  @Column('text')
  role!: CustomerRole;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
