import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ok, type CreateOfferingRequest, type OfferingView, type RequestReply } from '@app/contracts';
import { toOfferingView } from '../dtos/order.mapper';
import { OfferingRepository } from '../repositories/offering.repository';

@Injectable()
export class OfferingService {
  constructor(private readonly offerings: OfferingRepository) {}

  async create(request: CreateOfferingRequest): Promise<RequestReply<OfferingView>> {
    const offering = await this.offerings.create({
      uuid: randomUUID(),
      name: request.name,
      type: request.type,
    });
    return ok(toOfferingView(offering));
  }
}
