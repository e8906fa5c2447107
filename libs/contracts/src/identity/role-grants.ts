import { z } from 'zod';
import { hyperlink } from './wire-fields';

/** Waldur's role names (its permissions model since 2023). */
export const CUSTOMER_ROLES = ['CUSTOMER.OWNER'] as const;
export const PROJECT_ROLES = ['PROJECT.MANAGER', 'PROJECT.ADMIN', 'PROJECT.MEMBER'] as const;
export type CustomerRole = (typeof CUSTOMER_ROLES)[number];
export type ProjectRole = (typeof PROJECT_ROLES)[number];

function roleOf<R extends readonly [string, ...string[]]>(roles: R) {
  return z.enum(roles, { error: `Must be one of: ${roles.join(', ')}.` });
}

/** Body of `add_user` / `delete_user` on a customer: `{"user": "<url or uuid>", "role": "CUSTOMER.OWNER"}`. */
export const customerGrantBody = z.strictObject({ user: hyperlink('users'), role: roleOf(CUSTOMER_ROLES) });
/** Body of `add_user` / `delete_user` on a project. */
export const projectGrantBody = z.strictObject({ user: hyperlink('users'), role: roleOf(PROJECT_ROLES) });

/** One role grant, as `list_users` returns it. */
export const roleGrantViewSchema = z.object({
  uuid: z.uuid(),
  created: z.iso.datetime({ offset: true }),
  role_name: z.string(),
  user_uuid: z.uuid(),
  user_username: z.string(),
  user_full_name: z.string(),
  user_email: z.string(),
});
export type RoleGrantView = z.infer<typeof roleGrantViewSchema>;
