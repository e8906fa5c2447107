import { Module, type DynamicModule } from '@nestjs/common';
import { RuntimeLifecycle, SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';
import { CONFIG } from './config/config.token';
import type { OrderServiceConfig } from './config/order-service.config';
import { AuthController } from './controllers/auth.controller';
import { CallerContextController } from './controllers/caller-context.controller';
import { CustomersController } from './controllers/customers.controller';
import { HealthController } from './controllers/health.controller';
import { orderOutcomesConsumer } from './controllers/order-outcomes.consumer';
import { vmChangesConsumer } from './controllers/vm-changes.consumer';
import { OrdersController } from './controllers/orders.controller';
import { EventOutbox } from './repositories/event-outbox.repository';
import { ProjectsController } from './controllers/projects.controller';
import { UsersController } from './controllers/users.controller';
import { ApiTokenRepository } from './repositories/api-token.repository';
import { CustomerRepository } from './repositories/customer.repository';
import { dataSourceProvider } from '@app/messaging/repositories/data-source.provider';
import { LoginAttemptRepository } from './repositories/login-attempt.repository';
import { MARKETPLACE_CONTROLLERS, MARKETPLACE_PROVIDERS } from './marketplace/marketplace.providers';
import { OrderRepository } from './repositories/order.repository';
import { ProjectRepository } from './repositories/project.repository';
import { RoleGrantRepository } from './repositories/role-grant.repository';
import { UnitOfWork } from './repositories/unit-of-work';
import { UserRepository } from './repositories/user.repository';
import { AuthService } from './services/auth.service';
import { CredentialService } from './services/credential.service';
import { CustomerService } from './services/customer.service';
import { LoginThrottleService } from './services/login-throttle.service';
import { LoginService } from './services/login.service';
import { OfferingService } from './services/offering.service';
import { OrderOutcomeService } from './services/order-outcome.service';
import { VmLimitsService } from './services/vm-limits.service';
import { OrderSubmissionService } from './services/order-submission.service';
import { PrincipalService } from './services/principal.service';
import { ProjectService } from './services/project.service';
import { RequestGuard } from './services/request-guard.service';
import { RoleGrantService } from './services/role-grant.service';
import { UserService } from './services/user.service';

@Module({})
export class AppModule {
  static register(config: OrderServiceConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        OrdersController,
        HealthController,
        AuthController,
        CustomersController,
        ProjectsController,
        UsersController,
        ...MARKETPLACE_CONTROLLERS,
        CallerContextController,
      ],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: SERVICE_RUNTIME, useValue: runtime },
        dataSourceProvider(runtime),
        OrderRepository,
        EventOutbox,
        OfferingService,
        OrderSubmissionService,
        OrderOutcomeService,
        orderOutcomesConsumer,
        VmLimitsService,
        vmChangesConsumer,
        RuntimeLifecycle,
        // Identity and access: users, tokens, customers, projects, role grants.
        UserRepository,
        ApiTokenRepository,
        CustomerRepository,
        ProjectRepository,
        RoleGrantRepository,
        PrincipalService,
        RequestGuard,
        AuthService,
        CustomerService,
        ProjectService,
        UserService,
        RoleGrantService,
        UnitOfWork,
        LoginAttemptRepository,
        LoginThrottleService,
        LoginService,
        CredentialService,
        ...MARKETPLACE_PROVIDERS,
      ],
    };
  }
}
