import { Injectable } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import {
  invalidField,
  refuse,
  VSPHERE_ORDER_VALIDATION,
  vsphereOrderValidationSchema,
  type RequestReply,
  type VsphereOrderValidation,
  type VsphereOrderValidationRequest,
} from '@app/contracts';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { OrderValidationPort } from '../ports/order-validation.port';

const UNAVAILABLE = 'The vsphere-adapter service is not available; try again shortly.';

/**
 * `vsphere.orders.validate` over core NATS. The adapter's refusals reach the caller as it gave
 * them (400 with its fields, 409 with its reason); silence, a missing responder or an answer that is
 * not a validation is a 503: the order cannot be checked, so it is not taken.
 */
@Injectable()
export class VsphereOrderValidationClient implements OrderValidationPort {
  constructor(
    private readonly client: ClientNats,
    private readonly timeoutMs = 5_000,
  ) {}

  async validate(request: VsphereOrderValidationRequest): Promise<RequestReply<VsphereOrderValidation>> {
    let reply: unknown;
    try {
      reply = await firstValueFrom(
        this.client.send<unknown>(VSPHERE_ORDER_VALIDATION, request).pipe(timeout(this.timeoutMs)),
      );
    } catch (error) {
      if (
        error instanceof TimeoutError ||
        (error instanceof Error && /no responders|empty response|timeout/i.test(error.message))
      )
        return refuse(503, UNAVAILABLE);
      throw error;
    }
    return mapValidationReply(reply);
  }
}

/** The adapter's answer as the order service passes it on. */
export function mapValidationReply(reply: unknown): RequestReply<VsphereOrderValidation> {
  const answer = reply as Partial<RequestReply<unknown>> | null;
  if (answer?.status === 'ok') {
    const parsed = vsphereOrderValidationSchema.safeParse(answer.data);
    return parsed.success ? { status: 'ok', data: parsed.data } : refuse(503, UNAVAILABLE);
  }
  if (answer?.status === 'error') {
    const { code, fields, detail } = answer;
    if (code === 400 && fields) return { status: 'error', code: 400, fields };
    if (code === 400 || code === 409)
      return refuse(code, detail ?? 'The order was refused by the vSphere adapter.');
    // The adapter knows no integration for the offering: it cannot be ordered from (yet).
    if (code === 404)
      return invalidField('offering', "The offering's vSphere integration is not configured.");
    return refuse(503, detail ?? UNAVAILABLE);
  }
  return refuse(503, UNAVAILABLE);
}
