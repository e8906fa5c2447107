import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { HEALTH_PATTERNS, type HealthReport } from '@app/contracts';
import { SERVICE_HEALTH, type ServiceHealth } from '@app/messaging';
import { VmWatchService } from '../machines/services/vm-watch.service';

@Controller()
export class HealthController {
  constructor(
    @Inject(SERVICE_HEALTH) private readonly check: ServiceHealth,
    private readonly watches: VmWatchService,
  ) {}

  /** Postgres and NATS, and the live subscriptions to vCenter: one that is down degrades the adapter. */
  @MessagePattern(HEALTH_PATTERNS['vsphere-adapter'])
  async health(): Promise<HealthReport> {
    const report = await this.check();
    if (report.postgres === 'down') return report;
    const subscriptions = await this.watches.health().catch(() => []);
    const down = subscriptions.some((s) => s.state === 'down');
    return { ...report, status: down ? 'degraded' : report.status, vcenter_subscriptions: subscriptions };
  }
}
