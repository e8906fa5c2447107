import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ok,
  type CreateOfferingRequest,
  type OfferingType,
  type OfferingSummary,
  type RequestReply,
} from '@app/contracts';
import { toOfferingSummary } from '../dtos/order.mapper';
import { OfferingRepository } from '../marketplace/repositories/offering.repository';

@Injectable()
export class OfferingService {
  constructor(private readonly offerings: OfferingRepository) {}

  async create(request: CreateOfferingRequest): Promise<RequestReply<OfferingSummary>> {
    const offering = await this.offerings.create({
      uuid: randomUUID(),
      name: request.name,
      type: request.type as OfferingType,
      customerUuid: null,
      description: '',
      category: '',
      termsOfService: '',
      state: 'Active',
    });
    return ok(toOfferingSummary(offering));
  }
}
