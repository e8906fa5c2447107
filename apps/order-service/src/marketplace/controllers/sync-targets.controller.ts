import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ok,
  SYNC_TARGETS_PATTERN,
  syncTargetsRequestSchema,
  VMWARE_VM_TYPE,
  type RequestReply,
  type SyncTargetsView,
} from '@app/contracts';
import { parseRequest } from '@app/messaging';
import { OfferingRepository } from '../repositories/offering.repository';

/** The sync-scheduler's question: which offerings to keep synchronised (the NATS permissions let only it ask). */
@Controller()
export class SyncTargetsController {
  constructor(private readonly offerings: OfferingRepository) {}

  @MessagePattern(SYNC_TARGETS_PATTERN)
  async onList(@Payload() payload: unknown): Promise<RequestReply<SyncTargetsView>> {
    const parsed = parseRequest(syncTargetsRequestSchema, payload);
    if (!parsed.ok) return parsed.reply;
    return ok({ offering_uuids: await this.offerings.uuidsOfType(VMWARE_VM_TYPE) });
  }
}
