import { Inject, Injectable } from '@nestjs/common';
import {
  OrderStateChangedEvent,
  OrderSubmittedEvent,
  ResourceStateChangedEvent,
  type EventContract,
  type OfferingState,
  type OfferingType,
  type OrderState,
  type OrderSubmitted,
  type OrderView,
  type ResourceView,
} from '@app/contracts';
import { buildEnvelope, OutboxWriter } from '@app/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { toOrderView, toResourceView } from './order-view.repository';
import { runPrepared, type PreparedStatement } from './prepared-statement';

/** What an order form names, read in one statement: each part null when it does not exist. */
export interface PlacementContext {
  project: { uuid: string; customerUuid: string; name: string; customerName: string } | null;
  offering: {
    uuid: string;
    name: string;
    type: OfferingType;
    state: OfferingState;
    customerUuid: string | null;
    providerName: string;
    termsOfService: string;
    maxResourceTerminationOffsetInDays: number | null;
  } | null;
  plan: {
    plan: { uuid: string; offeringUuid: string; name: string; archived: boolean };
    prices: Record<string, string>;
  } | null;
  /** The ordering user's username (null for a user deleted meanwhile). */
  username: string | null;
}

const CONTEXT: PreparedStatement = {
  name: 'order-placement-context',
  text: `
  SELECT
    (SELECT json_build_object('uuid', p."uuid", 'customerUuid', p."customer_uuid", 'name', p."name",
              'customerName', c."name")
       FROM "marketplace"."projects" p JOIN "marketplace"."customers" c ON c."uuid" = p."customer_uuid"
       WHERE p."uuid" = $1::uuid) AS "project",
    (SELECT json_build_object('uuid', o."uuid", 'name', o."name", 'type', o."type", 'state', o."state",
              'customerUuid', o."customer_uuid", 'providerName', COALESCE(prov."name", ''),
              'termsOfService', o."terms_of_service",
              'maxResourceTerminationOffsetInDays', o."max_resource_termination_offset_in_days")
       FROM "marketplace"."offerings" o LEFT JOIN "marketplace"."customers" prov ON prov."uuid" = o."customer_uuid"
       WHERE o."uuid" = $2::uuid) AS "offering",
    (SELECT json_build_object(
              'plan', json_build_object('uuid', pl."uuid", 'offeringUuid', pl."offering_uuid", 'name', pl."name",
                'archived', pl."archived"),
              'prices', COALESCE((SELECT json_object_agg(pp."component_type", pp."price"::text)
                 FROM "marketplace"."plan_prices" pp WHERE pp."plan_uuid" = pl."uuid"), '{}'::json))
       FROM "marketplace"."plans" pl WHERE pl."uuid" = $3::uuid) AS "plan",
    (SELECT u."username" FROM "marketplace"."users" u WHERE u."uuid" = $4::uuid) AS "username"`,
};

/**
 * The resource, the order and their events in one statement: the data-modifying CTEs run together
 * and the foreign keys are checked at the statement's end, when all rows exist. The events keep
 * their order (`seq`) as given.
 */
const CREATE: PreparedStatement = {
  name: 'order-placement-create',
  text: `
  WITH "resource" AS (
    INSERT INTO "marketplace"."resources" ("uuid", "name", "description", "state", "offering_uuid",
      "project_uuid", "plan_uuid", "attributes", "limits", "cost", "error_message", "backend_id",
      "backend_ref", "end_date", "end_date_requested_by", "created", "modified")
    VALUES ($1, $2, $3, 'Creating', $4, $5, $6, $7, $8, $9, '', NULL, NULL, $10, $11, $12, $12)
  ), "order" AS (
    INSERT INTO "marketplace"."orders" ("uuid", "type", "state", "offering_uuid", "project_uuid",
      "resource_uuid", "plan_uuid", "attributes", "limits", "cost", "error_message", "created_by",
      "consumer_reviewed_by", "consumer_reviewed_at", "provider_reviewed_by", "provider_reviewed_at",
      "created", "modified")
    VALUES ($13, 'Create', $14, $4, $5, $1, $6, $7, $8, $9, '', $15, $16, $17, NULL, NULL, $12, $12)
  ), "events" AS (
    INSERT INTO "marketplace"."outbox" ("id", "subject", "type", "correlation_id", "aggregate", "envelope")
    SELECT (e."x"->>'id')::uuid, e."x"->>'subject', e."x"->>'type', e."x"->>'correlationId',
      e."x"->>'aggregate', e."x"->'envelope'
    FROM jsonb_array_elements($18::jsonb) WITH ORDINALITY AS e("x", "n") ORDER BY e."n"
  )
  SELECT 1`,
};

export interface NewCreateOrder {
  orderUuid: string;
  marketplaceResourceUuid: string;
  state: OrderState;
  context: {
    project: NonNullable<PlacementContext['project']>;
    offering: NonNullable<PlacementContext['offering']>;
  };
  plan: { uuid: string; name: string } | null;
  name: string;
  description: string;
  attributes: Record<string, unknown>;
  limits: Record<string, number>;
  cost: string | null;
  endDate: Date | null;
  createdBy: string;
  createdByUsername: string | null;
  /** When the order's author reviewed it as the consumer (its state is past pending-consumer). */
  consumerReviewed: boolean;
}

interface OutboxRow {
  id: string;
  subject: string;
  type: string;
  correlationId: string;
  aggregate: string;
  envelope: unknown;
}

/**
 * The write path of a Create order: what the order form names, read in one statement (no entity
 * hydration), and the order, its resource and their events (OrderStateChanged, ResourceStateChanged,
 * and OrderSubmitted when it executes at once) written in one more, inside the caller's transaction.
 * The views the events carry are made from what was read and written, as OrderViewRepository would
 * read them back, so nothing is read back.
 */
@Injectable()
export class OrderPlacementRepository {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    // Only for the subjects: the placement's outbox rows go in its own one-statement batch.
    @Inject(OutboxWriter) private readonly writer: Pick<OutboxWriter, 'subjects'>,
  ) {}

  async context(
    projectUuid: string,
    offeringUuid: string,
    planUuid: string | null,
    userUuid: string,
  ): Promise<PlacementContext> {
    const [row] = await runPrepared<PlacementContext>(this.dataSource, CONTEXT, [
      projectUuid,
      offeringUuid,
      planUuid,
      userUuid,
    ]);
    return row;
  }

  /** Writes the order, its resource and their events; answers the order's view. */
  async createOrder(tx: EntityManager, order: NewCreateOrder): Promise<OrderView> {
    const { project, offering } = order.context;
    const now = new Date();
    const consumerReviewedAt = order.consumerReviewed ? now : null;
    const scope = {
      offering_uuid: offering.uuid,
      offering_name: offering.name,
      offering_type: offering.type,
      project_uuid: project.uuid,
      project_name: project.name,
      customer_uuid: project.customerUuid,
      customer_name: project.customerName,
      plan_uuid: order.plan?.uuid ?? null,
      plan_name: order.plan?.name ?? null,
      provider_uuid: offering.customerUuid,
      provider_name: offering.providerName,
    };
    const view = toOrderView({
      ...scope,
      uuid: order.orderUuid,
      type: 'Create',
      state: order.state,
      marketplace_resource_uuid: order.marketplaceResourceUuid,
      resource_uuid: null,
      resource_name: order.name,
      attributes: order.attributes,
      limits: order.limits,
      cost: order.cost,
      error_message: '',
      created_by_uuid: order.createdBy,
      created_by_username: order.createdByUsername,
      created: now,
      modified: now,
      completed_at: null,
    });
    const resource: ResourceView = toResourceView({
      ...scope,
      uuid: order.marketplaceResourceUuid,
      name: order.name,
      description: order.description,
      state: 'Creating',
      resource_uuid: null,
      backend_id: null,
      resource_type: offering.type,
      attributes: order.attributes,
      limits: order.limits,
      cost: order.cost,
      error_message: '',
      end_date: order.endDate,
      end_date_requested_by: order.endDate ? order.createdBy : null,
      end_date_warnings: [],
      created: now,
      modified: now,
    });
    const { subjects } = this.writer;
    const events: OutboxRow[] = [
      this.event(
        subjects.orderStateChanged,
        OrderStateChangedEvent,
        { order: view, previous_state: null },
        view.uuid,
        resource.uuid,
      ),
      this.event(
        subjects.resourceStateChanged,
        ResourceStateChangedEvent,
        { resource, previous_state: null },
        view.uuid,
        resource.uuid,
      ),
    ];
    if (order.state === 'executing') {
      const submitted: OrderSubmitted = {
        orderUuid: view.uuid,
        orderType: 'Create',
        offeringUuid: offering.uuid,
        offeringType: offering.type,
        projectUuid: project.uuid,
        customerUuid: project.customerUuid,
        marketplaceResourceUuid: resource.uuid,
        backendId: null,
        attributes: order.attributes,
        limits: order.limits,
      };
      events.push(
        this.event(
          subjects.orderSubmitted(offering.type),
          OrderSubmittedEvent,
          submitted,
          view.uuid,
          view.uuid,
        ),
      );
    }
    await runPrepared(tx, CREATE, [
      order.marketplaceResourceUuid,
      order.name,
      order.description,
      offering.uuid,
      project.uuid,
      order.plan?.uuid ?? null,
      JSON.stringify(order.attributes),
      JSON.stringify(order.limits),
      order.cost,
      order.endDate,
      order.endDate ? order.createdBy : null,
      now,
      order.orderUuid,
      order.state,
      order.createdBy,
      order.consumerReviewed ? order.createdBy : null,
      consumerReviewedAt,
      JSON.stringify(events),
    ]);
    return view;
  }

  private event<T>(
    subject: string,
    contract: EventContract<T>,
    data: T,
    correlationId: string,
    aggregate: string,
  ): OutboxRow {
    const envelope = buildEnvelope(contract, data, correlationId);
    return { id: envelope.id, subject, type: envelope.type, correlationId, aggregate, envelope };
  }
}
