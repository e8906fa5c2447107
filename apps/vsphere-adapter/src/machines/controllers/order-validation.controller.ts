import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  VSPHERE_ORDER_VALIDATION,
  vsphereOrderValidationRequestSchema,
  type RequestReply,
  type VsphereOrderValidation,
} from '@app/contracts';
import { RequestGuard } from '../../services/request-guard.service';
import { OrderValidationService } from '../services/order-validation.service';

/** `vsphere.orders.validate`, asked by the order service before it stores a VM order. */
@Controller()
export class OrderValidationController {
  constructor(
    private readonly guard: RequestGuard,
    private readonly validation: OrderValidationService,
  ) {}

  @MessagePattern(VSPHERE_ORDER_VALIDATION)
  async onValidate(@Payload() payload: unknown): Promise<RequestReply<VsphereOrderValidation>> {
    return this.guard.handleSchema(vsphereOrderValidationRequestSchema, payload, (request) =>
      this.validation.validate(request),
    );
  }
}
