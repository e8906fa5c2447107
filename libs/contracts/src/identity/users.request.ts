import { z } from 'zod';
import { operation, paginationQuery, uuidParams } from './operation';
import { email, flag, messages, newPassword, queryBoolean, queryText, secret, text } from './wire-fields';

/**
 * Users: core NATS request-reply, asked by the gateway for `/api/users/`, answered by the order
 * service. Only staff create users or change `is_staff` / `is_active`; a user edits their own name.
 */
const username = text(150).regex(
  /^[\w.@+-]+$/,
  'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
);

export const createUserBody = z.strictObject({
  username,
  full_name: text(100, { blank: true }).default(''),
  email: z.union([email(), z.literal('')]).default(''),
  is_staff: flag().default(false),
  is_active: flag().default(true),
});
export const updateUserBody = z
  .strictObject({
    full_name: text(100, { blank: true }),
    email: z.union([email(), z.literal('')]),
    is_staff: flag(),
    is_active: flag(),
  })
  .partial();

export const userViewSchema = z.object({
  uuid: z.uuid(),
  username: z.string(),
  full_name: z.string(),
  email: z.string(),
  is_staff: z.boolean(),
  is_active: z.boolean(),
  date_joined: z.iso.datetime({ offset: true }),
});
export type UserView = z.infer<typeof userViewSchema>;

export const userListQuery = z.object({
  ...paginationQuery,
  username: queryText(150).optional().meta({ description: 'Exact username' }),
  is_staff: queryBoolean().optional(),
  customer_uuid: z
    .uuid({ error: messages.uuid })
    .optional()
    .meta({ description: 'Users with a role in this customer' }),
  project_uuid: z
    .uuid({ error: messages.uuid })
    .optional()
    .meta({ description: 'Users with a role in this project' }),
});

/**
 * `change_password`: staff set anyone's password; users set their own, giving the current one when
 * they have one (a stolen token alone cannot lock the owner out). Write-only: never returned.
 */
export const changePasswordBody = z.strictObject({
  new_password: newPassword(),
  current_password: secret().optional(),
});

/** A message and nothing else, e.g. `{"detail": "Password has been successfully updated."}`. */
export const detailViewSchema = z.object({ detail: z.string() });
export type DetailView = z.infer<typeof detailViewSchema>;

export const USER_OPERATIONS = {
  list: operation('marketplace.users.list', { query: userListQuery }),
  me: operation('marketplace.users.me', {}),
  get: operation('marketplace.users.get', { params: uuidParams }),
  create: operation('marketplace.users.create', { body: createUserBody }),
  update: operation('marketplace.users.update', { params: uuidParams, body: updateUserBody }),
  delete: operation('marketplace.users.delete', { params: uuidParams }),
  changePassword: operation('marketplace.users.change-password', {
    params: uuidParams,
    body: changePasswordBody,
  }),
  /** A new token for the user (themself or staff asking); every earlier token of theirs is revoked. */
  refreshToken: operation('marketplace.users.refresh-token', { params: uuidParams }),
  /** Revokes every token of the user at once (staff, or the user logging out everywhere). */
  revokeTokens: operation('marketplace.users.revoke-tokens', { params: uuidParams }),
};
