import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { HEALTH_PATTERNS, type HealthReport } from '@app/contracts';
import { SERVICE_HEALTH, type ServiceHealth } from '@app/messaging';

@Controller()
export class HealthController {
  constructor(@Inject(SERVICE_HEALTH) private readonly check: ServiceHealth) {}

  @MessagePattern(HEALTH_PATTERNS['sync-scheduler'])
  async health(): Promise<HealthReport> {
    return this.check();
  }
}
