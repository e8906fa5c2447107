import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  END_DATES_SWEEP_PATTERN,
  endDatesSweepRequestSchema,
  ok,
  RESOURCE_OPERATIONS as RESOURCES,
  type EndDatesSweepView,
  type RequestReply,
  type ResourceView,
} from '@app/contracts';
import { parseRequest } from '@app/messaging';
import { RequestGuard } from '../../identity';
import { EndDateService } from '../services/end-date.service';

/**
 * `POST /api/marketplace-resources/{uuid}/set_end_date/`, and the scheduler leader's sweep (the
 * NATS permissions let only the sync-scheduler ask it).
 */
@Controller()
export class EndDatesController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly endDates: EndDateService,
  ) {}

  @MessagePattern(RESOURCES.setEndDate.pattern)
  async onSetEndDate(@Payload() payload: unknown): Promise<RequestReply<ResourceView>> {
    return this.guard.handle(RESOURCES.setEndDate, payload, (request, caller) =>
      this.endDates.setEndDate(request, caller),
    );
  }

  @MessagePattern(END_DATES_SWEEP_PATTERN)
  async onSweep(@Payload() payload: unknown): Promise<RequestReply<EndDatesSweepView>> {
    const parsed = parseRequest(endDatesSweepRequestSchema, payload);
    if (!parsed.ok) return parsed.reply;
    return ok(await this.endDates.sweep());
  }
}
