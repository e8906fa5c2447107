import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ORDER_PATTERNS,
  createOfferingRequestSchema,
  createOrderRequestSchema,
  getOrderRequestSchema,
  type OfferingSummary,
  type BackboneOrderView,
  type RequestReply,
} from '@app/contracts';
import { parseRequest } from '@app/messaging';
import { OfferingService } from '../services/offering.service';
import { OrderSubmissionService } from '../services/order-submission.service';

/** Order requests over core NATS: validate, call one service, answer. */
@Controller()
export class OrdersController {
  constructor(
    private readonly offerings: OfferingService,
    private readonly submissions: OrderSubmissionService,
  ) {}

  @MessagePattern(ORDER_PATTERNS.createOffering)
  async createOffering(@Payload() payload: unknown): Promise<RequestReply<OfferingSummary>> {
    const parsed = parseRequest(createOfferingRequestSchema, payload);
    return parsed.ok ? this.offerings.create(parsed.value) : parsed.reply;
  }

  @MessagePattern(ORDER_PATTERNS.createOrder)
  async createOrder(@Payload() payload: unknown): Promise<RequestReply<BackboneOrderView>> {
    const parsed = parseRequest(createOrderRequestSchema, payload);
    return parsed.ok ? this.submissions.create(parsed.value) : parsed.reply;
  }

  @MessagePattern(ORDER_PATTERNS.getOrder)
  async getOrder(@Payload() payload: unknown): Promise<RequestReply<BackboneOrderView>> {
    const parsed = parseRequest(getOrderRequestSchema, payload);
    return parsed.ok ? this.submissions.get(parsed.value.uuid) : parsed.reply;
  }
}
