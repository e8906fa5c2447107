import { Controller, Get, HttpException, HttpStatus } from '@nestjs/common';
import { HEALTH_PATTERNS, type HealthReport } from '@app/contracts';
import { ServiceRequester } from '../services/service-requester';

type ServiceHealth = HealthReport | { status: 'unavailable'; detail: string };

interface GatewayHealth {
  status: 'ok' | 'degraded';
  nats: 'up' | 'down';
  services: Record<string, ServiceHealth>;
}

/** `/health`: the gateway's own NATS link and every service's Postgres and NATS, asked over NATS. */
@Controller()
export class HealthController {
  constructor(private readonly requester: ServiceRequester) {}

  @Get('health')
  async health(): Promise<GatewayHealth> {
    const entries = await Promise.all(
      Object.entries(HEALTH_PATTERNS).map(async ([app, pattern]): Promise<[string, ServiceHealth]> => {
        try {
          const report = await this.requester.request<HealthReport>(pattern, {}, 2_000);
          return [app, report];
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          return [app, { status: 'unavailable', detail }];
        }
      }),
    );
    const services: Record<string, ServiceHealth> = Object.fromEntries(entries);
    const nats = this.requester.natsConnected ? 'up' : 'down';
    const healthy = nats === 'up' && Object.values(services).every((report) => report.status === 'ok');
    const body: GatewayHealth = { status: healthy ? 'ok' : 'degraded', nats, services };
    if (!healthy) throw new HttpException(body, HttpStatus.SERVICE_UNAVAILABLE);
    return body;
  }
}
