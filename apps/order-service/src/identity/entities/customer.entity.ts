import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { CustomerRecord } from '../domain/records';

/** A customer: Waldur's organisation. Owns projects; owns offerings when it is a service provider. */
@Entity({ name: 'customers' })
export class CustomerEntity implements CustomerRecord {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('varchar')
  name!: string;

  @Column({ name: 'native_name', type: 'varchar' })
  nativeName!: string;

  @Column('varchar')
  abbreviation!: string;

  @Column('varchar')
  email!: string;

  @Column({ name: 'phone_number', type: 'varchar' })
  phoneNumber!: string;

  @Column('varchar')
  description!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
