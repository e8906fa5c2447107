import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { HEALTH_PATTERNS, type HealthReport } from '@app/contracts';

@Controller()
export class HealthController {
  /** Answering at all proves the NATS link; the scheduler keeps no Postgres state yet. */
  @MessagePattern(HEALTH_PATTERNS['sync-scheduler'])
  health(): HealthReport {
    return { app: 'sync-scheduler', status: 'ok', postgres: 'not-used', nats: 'up' };
  }
}
