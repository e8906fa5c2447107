import { Inject, Injectable } from '@nestjs/common';
import {
  ASSIGNMENT_FIELDS,
  invalidField,
  ok,
  refuse,
  uuidOfHyperlink,
  type AssignmentKind,
  type AssignmentView,
  type Page,
  type RequestReply,
  type VsphereCaller,
} from '@app/contracts';
import type { StoreAnswer } from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { NOT_FOUND, staffOnly } from '../../services/request-guard.service';
import { toAssignmentView } from '../dtos/inventory.mapper';
import { AssignmentRepository, DuplicateAssignmentError } from '../repositories/assignment.repository';

const NO_OBJECT = 'Invalid hyperlink - Object does not exist.';

// Waldur's basic-mode messages: each organisation has exactly one of these kinds.
const BASIC_MODE_SECOND: Partial<Record<AssignmentKind, string>> = {
  clusters: 'There are multiple clusters assigned to the current customer.',
  networks: 'There are multiple networks assigned to the current customer.',
  datastores: 'There are multiple datastores assigned to the current customer.',
  folders: 'There are multiple folders assigned to the current customer.',
};

/** An assignment request's body: the customer and the object, as URLs or uuids. */
export type AssignmentBody = { customer: string } & Record<string, string>;

/** Staff assign vCenter objects to organisations (Waldur does it in Django's admin). */
@Injectable()
export class AssignmentService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    private readonly assignments: AssignmentRepository,
  ) {}

  /** With an Idempotency-Key, `store` keeps the answer in the transaction that made the assignment. */
  async add(
    kind: AssignmentKind,
    caller: VsphereCaller,
    body: AssignmentBody,
    store?: StoreAnswer,
  ): Promise<RequestReply<AssignmentView>> {
    if (!caller.is_staff) return staffOnly();
    const { field } = ASSIGNMENT_FIELDS[kind];
    const customerUuid = uuidOfHyperlink(body.customer);
    const object = await this.assignments.getObject(kind, uuidOfHyperlink(body[field]));
    if (object === null) return invalidField(field, NO_OBJECT);
    const basicModeMessage = this.config.VSPHERE_BASIC_MODE ? BASIC_MODE_SECOND[kind] : undefined;
    try {
      return await this.assignments.inCustomerLock(kind, customerUuid, async (tx) => {
        if (
          basicModeMessage !== undefined &&
          (await this.assignments.countInOffering(tx, kind, customerUuid, object.offeringUuid)) > 0
        )
          return invalidField(field, basicModeMessage);
        const reply = ok(toAssignmentView(kind, await this.assignments.add(tx, kind, customerUuid, object)));
        await store?.(tx, reply);
        return reply;
      });
    } catch (error) {
      if (error instanceof DuplicateAssignmentError)
        return invalidField('non_field_errors', `The fields customer, ${field} must make a unique set.`);
      throw error;
    }
  }

  async remove(
    kind: AssignmentKind,
    caller: VsphereCaller,
    body: AssignmentBody,
  ): Promise<RequestReply<null>> {
    if (!caller.is_staff) return staffOnly();
    const { field } = ASSIGNMENT_FIELDS[kind];
    const object = await this.assignments.getObject(kind, uuidOfHyperlink(body[field]));
    if (object === null) return invalidField(field, NO_OBJECT);
    const removed = await this.assignments.remove(kind, uuidOfHyperlink(body.customer), object.uuid);
    return removed ? ok(null) : refuse(404, NOT_FOUND);
  }

  async list(
    kind: AssignmentKind,
    caller: VsphereCaller,
    query: { page: number; page_size: number; customer_uuid?: string; offering_uuid?: string },
  ): Promise<RequestReply<Page<AssignmentView>>> {
    if (!caller.is_staff) return staffOnly();
    const found = await this.assignments.list(
      kind,
      { customerUuid: query.customer_uuid, offeringUuid: query.offering_uuid },
      { page: query.page, pageSize: query.page_size },
    );
    return ok({ items: found.items.map((row) => toAssignmentView(kind, row)), count: found.count });
  }
}
