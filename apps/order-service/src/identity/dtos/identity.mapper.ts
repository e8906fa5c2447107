import type { CustomerView, ProjectView, RoleGrantView, UserView } from '@app/contracts';
import type { CustomerEntity } from '../entities/customer.entity';
import type { ProjectEntity } from '../entities/project.entity';
import type { UserEntity } from '../entities/user.entity';
import type { GrantWithUser } from '../repositories/role-grant.repository';

/** Views without `url`: the gateway knows the host the caller used and adds the links. */
export function toUserView(user: UserEntity): UserView {
  return {
    uuid: user.uuid,
    username: user.username,
    full_name: user.fullName,
    email: user.email,
    is_staff: user.isStaff,
    is_active: user.isActive,
    date_joined: user.dateJoined.toISOString(),
  };
}

export function toCustomerView(customer: CustomerEntity, isServiceProvider: boolean): CustomerView {
  return {
    uuid: customer.uuid,
    name: customer.name,
    native_name: customer.nativeName,
    abbreviation: customer.abbreviation,
    email: customer.email,
    phone_number: customer.phoneNumber,
    description: customer.description,
    is_service_provider: isServiceProvider,
    created: customer.created.toISOString(),
  };
}

export function toProjectView(project: ProjectEntity, customerName: string): ProjectView {
  return {
    uuid: project.uuid,
    name: project.name,
    description: project.description,
    customer_uuid: project.customerUuid,
    customer_name: customerName,
    created: project.created.toISOString(),
  };
}

export function toGrantView(grant: GrantWithUser): RoleGrantView {
  return {
    uuid: grant.uuid,
    created: grant.created.toISOString(),
    role_name: grant.role,
    user_uuid: grant.user.uuid,
    user_username: grant.user.username,
    user_full_name: grant.user.fullName,
    user_email: grant.user.email,
  };
}
