import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { HEALTH_PATTERNS, type HealthReport } from '@app/contracts';
import { SERVICE_RUNTIME, type ServiceRuntime } from '@app/messaging';

@Controller()
export class HealthController {
  constructor(@Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime) {}

  @MessagePattern(HEALTH_PATTERNS['sync-scheduler'])
  async health(): Promise<HealthReport> {
    return this.runtime.health();
  }
}
