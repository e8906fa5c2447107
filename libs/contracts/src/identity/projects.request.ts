import { z } from 'zod';
import { operation, paginationQuery, uuidParams } from './operation';
import { quotaViewSchema, setQuotasBody } from './quotas';
import { projectGrantBody } from './role-grants';
import { hyperlink, messages, queryText, text } from './wire-fields';

/**
 * Projects of a customer: core NATS request-reply, asked by the gateway for `/api/projects/`,
 * answered by the order service, which decides every permission.
 */
export const createProjectBody = z.strictObject({
  name: text(500),
  description: text(2000, { blank: true }).default(''),
  customer: hyperlink('customers'),
});
export const updateProjectBody = z
  .strictObject({ name: text(500), description: text(2000, { blank: true }) })
  .partial();

export const projectViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  description: z.string(),
  customer_uuid: z.uuid(),
  customer_name: z.string(),
  created: z.iso.datetime({ offset: true }),
  /** Its quotas with their usage: on a single project (GET, set_quotas), not in lists. */
  quotas: z.array(quotaViewSchema).optional(),
});
export type ProjectView = z.infer<typeof projectViewSchema>;

export const projectListQuery = z.object({
  ...paginationQuery,
  name: queryText(500).optional().meta({ description: 'Name contains (case-insensitive)' }),
  customer_uuid: z.uuid({ error: messages.uuid }).optional(),
});

export const PROJECT_OPERATIONS = {
  list: operation('marketplace.projects.list', { query: projectListQuery }),
  get: operation('marketplace.projects.get', { params: uuidParams }),
  create: operation('marketplace.projects.create', { body: createProjectBody }),
  update: operation('marketplace.projects.update', { params: uuidParams, body: updateProjectBody }),
  delete: operation('marketplace.projects.delete', { params: uuidParams }),
  listUsers: operation('marketplace.projects.list-users', {
    params: uuidParams,
    query: z.object(paginationQuery),
  }),
  addUser: operation('marketplace.projects.add-user', { params: uuidParams, body: projectGrantBody }),
  setQuotas: operation('marketplace.projects.set-quotas', { params: uuidParams, body: setQuotasBody }),
  deleteUser: operation('marketplace.projects.delete-user', { params: uuidParams, body: projectGrantBody }),
};
