import { Controller, Get, Res } from '@nestjs/common';
import type { HttpResponse } from '../rest/http-types';
import { GatewayMetrics } from '../metrics/gateway-metrics';

/** `/metrics` in Prometheus' text format, for a scraper inside the deployment. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: GatewayMetrics) {}

  @Get('metrics')
  async scrape(@Res() response: HttpResponse): Promise<void> {
    const text = await this.metrics.registry.metrics();
    response.writeHead(200, { 'Content-Type': this.metrics.registry.contentType }).end(text);
  }
}
