import type { RequestReply, VsphereOrderValidation, VsphereOrderValidationRequest } from '@app/contracts';

/**
 * The provider system's check of an order before it is stored: for `VMware.VirtualMachine`, the
 * vSphere adapter (template, maximums, placement the customer may use, the VM's power state).
 * Answers the attributes and limits as they are to be stored, a 400 naming the fields, a 409 for a
 * VM in the wrong state, or 503 when the adapter cannot be reached, or not before `deadline` (the
 * gateway's, epoch ms) leaves time to store the order.
 */
export interface OrderValidationPort {
  validate(
    request: VsphereOrderValidationRequest,
    deadline?: number,
  ): Promise<RequestReply<VsphereOrderValidation>>;
}

export const ORDER_VALIDATION_PORT = Symbol('OrderValidationPort');
