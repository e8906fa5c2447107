import { Module } from '@nestjs/common';
import { AuthController } from './controllers/auth.controller';
import { CallerContextController } from './controllers/caller-context.controller';
import { CustomersController } from './controllers/customers.controller';
import { ProjectsController } from './controllers/projects.controller';
import { UsersController } from './controllers/users.controller';
import { ApiTokenEntity } from './entities/api-token.entity';
import { CustomerPermissionEntity } from './entities/customer-permission.entity';
import { CustomerEntity } from './entities/customer.entity';
import { LoginAttemptEntity } from './entities/login-attempt.entity';
import { ProjectPermissionEntity } from './entities/project-permission.entity';
import { ProjectEntity } from './entities/project.entity';
import { UserEntity } from './entities/user.entity';
import { AccessEvents } from './repositories/access-events.repository';
import { ApiTokenRepository } from './repositories/api-token.repository';
import { CustomerRepository } from './repositories/customer.repository';
import { LoginAttemptRepository } from './repositories/login-attempt.repository';
import { ProjectRepository } from './repositories/project.repository';
import { RoleGrantRepository } from './repositories/role-grant.repository';
import { SystemUserRepository } from './repositories/system-user.repository';
import { UserRepository } from './repositories/user.repository';
import { AuthService } from './services/auth.service';
import { CredentialService } from './services/credential.service';
import { CustomerService } from './services/customer.service';
import { LoginThrottleService } from './services/login-throttle.service';
import { LoginService } from './services/login.service';
import { PrincipalService } from './services/principal.service';
import { ProjectService } from './services/project.service';
import { RequestGuard } from './services/request-guard.service';
import { RoleGrantService } from './services/role-grant.service';
import { SystemCaller } from './services/system-caller.service';
import { UserService } from './services/user.service';

/** The tables identity owns, for the order service's data source. */
export const IDENTITY_ENTITIES = [
  UserEntity,
  ApiTokenEntity,
  CustomerEntity,
  ProjectEntity,
  CustomerPermissionEntity,
  ProjectPermissionEntity,
  LoginAttemptEntity,
];

/**
 * Identity and access in the order service: users, API tokens, logins and their throttle,
 * organisations (customers), projects, role grants, the access policy and the caller context the
 * gateway asks for. Its exports (re-exported by `./index.ts`) are the only way in for other modules.
 * CONFIG, the DataSource, the unit of work and the outbox writer come from the app module (global).
 */
@Module({
  controllers: [
    AuthController,
    CustomersController,
    ProjectsController,
    UsersController,
    CallerContextController,
  ],
  providers: [
    AccessEvents,
    UserRepository,
    ApiTokenRepository,
    CustomerRepository,
    ProjectRepository,
    RoleGrantRepository,
    LoginAttemptRepository,
    SystemUserRepository,
    PrincipalService,
    RequestGuard,
    AuthService,
    CustomerService,
    ProjectService,
    UserService,
    RoleGrantService,
    LoginThrottleService,
    LoginService,
    CredentialService,
    SystemCaller,
  ],
  exports: [RequestGuard, CustomerService, ProjectService, SystemCaller],
})
export class IdentityModule {}
