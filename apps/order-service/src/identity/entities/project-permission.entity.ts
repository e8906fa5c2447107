import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ProjectRole } from '@app/contracts';

/** A user's role in a project (PROJECT.MANAGER, PROJECT.ADMIN, PROJECT.MEMBER). */
@Entity({ name: 'project_permissions' })
export class ProjectPermissionEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'project_uuid', type: 'uuid' })
  projectUuid!: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid!: string;

  @Column('text')
  role!: ProjectRole;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
