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
import { askService, NO_ANSWER } from '@app/messaging';
import { DEADLINE_PASSED, msLeft, STORE_RESERVE_MS } from '../../identity';
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

  /** Waits for the adapter no longer than `deadline` leaves, with the time to store the order kept. */
  async validate(
    request: VsphereOrderValidationRequest,
    deadline?: number,
  ): Promise<RequestReply<VsphereOrderValidation>> {
    const left = msLeft(deadline, STORE_RESERVE_MS);
    if (left !== undefined && left <= 0) return refuse(503, DEADLINE_PASSED);
    const timeoutMs = Math.min(this.timeoutMs, left ?? this.timeoutMs);
    const reply = await askService(this.client, VSPHERE_ORDER_VALIDATION, request, timeoutMs);
    if (reply === NO_ANSWER) {
      const outOfTime = (msLeft(deadline, STORE_RESERVE_MS) ?? 1) <= 0;
      return refuse(503, outOfTime ? DEADLINE_PASSED : UNAVAILABLE);
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
