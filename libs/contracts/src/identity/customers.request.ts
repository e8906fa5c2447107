import { z } from 'zod';
import { operation, paginationQuery, uuidParams } from './operation';
import { quotaViewSchema, setQuotasBody } from './quotas';
import { customerGrantBody } from './role-grants';
import { email, queryText, text } from './wire-fields';

/**
 * Customers (Waldur's organisations): core NATS request-reply, asked by the gateway for
 * `/api/customers/`, answered by the order service, which decides every permission.
 */
const customerFields = {
  name: text(150),
  native_name: text(160, { blank: true }),
  abbreviation: text(12, { blank: true }),
  email: z.union([email(75), z.literal('')]),
  phone_number: text(255, { blank: true }),
  description: text(2000, { blank: true }),
};

export const createCustomerBody = z.strictObject({
  ...customerFields,
  native_name: customerFields.native_name.default(''),
  abbreviation: customerFields.abbreviation.default(''),
  email: customerFields.email.default(''),
  phone_number: customerFields.phone_number.default(''),
  description: customerFields.description.default(''),
});
export const updateCustomerBody = z.strictObject(customerFields).partial();

export const customerViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  native_name: z.string(),
  abbreviation: z.string(),
  email: z.string(),
  phone_number: z.string(),
  description: z.string(),
  /** A customer that owns offerings is a service provider; its owners act for it. */
  is_service_provider: z.boolean(),
  created: z.iso.datetime({ offset: true }),
  /** Its quotas with their usage: on a single customer (GET, set_quotas), not in lists. */
  quotas: z.array(quotaViewSchema).optional(),
});
export type CustomerView = z.infer<typeof customerViewSchema>;

export const customerListQuery = z.object({
  ...paginationQuery,
  name: queryText(150).optional().meta({ description: 'Name contains (case-insensitive)' }),
});

export const CUSTOMER_OPERATIONS = {
  list: operation('marketplace.customers.list', { query: customerListQuery }),
  get: operation('marketplace.customers.get', { params: uuidParams }),
  create: operation('marketplace.customers.create', { body: createCustomerBody }),
  update: operation('marketplace.customers.update', { params: uuidParams, body: updateCustomerBody }),
  delete: operation('marketplace.customers.delete', { params: uuidParams }),
  listUsers: operation('marketplace.customers.list-users', {
    params: uuidParams,
    query: z.object(paginationQuery),
  }),
  addUser: operation('marketplace.customers.add-user', { params: uuidParams, body: customerGrantBody }),
  setQuotas: operation('marketplace.customers.set-quotas', { params: uuidParams, body: setQuotasBody }),
  deleteUser: operation('marketplace.customers.delete-user', { params: uuidParams, body: customerGrantBody }),
};
