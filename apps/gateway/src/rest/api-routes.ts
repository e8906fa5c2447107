import {
  API_PATHS,
  CUSTOMER_OPERATIONS as CUSTOMERS,
  customerViewSchema,
  detailViewSchema,
  LOGIN_OPERATION,
  PROJECT_OPERATIONS as PROJECTS,
  projectViewSchema,
  roleGrantViewSchema,
  tokenViewSchema,
  USER_OPERATIONS as USERS,
  userViewSchema,
  type CustomerView,
  type ProjectView,
  type RoleGrantView,
  type UserView,
} from '@app/contracts';
import { z } from 'zod';
import { present, type Links } from './links';
import { model } from './openapi-models';
import { apiRoute as route, type AnyOperation, type ApiRoute, type NestRoute } from './route';
import { MARKETPLACE_ROUTES } from './marketplace-routes';
import { ORDER_ROUTES } from './order-routes';
import { VSPHERE_ROUTES } from './vsphere-routes';
import { VIRTUAL_MACHINE_ROUTES } from './virtual-machine-routes';
import { VM_DEVICE_ROUTES } from './vm-device-routes';
import { VM_SNAPSHOT_ROUTES } from './vm-snapshot-routes';
import { VM_STATS_ROUTES } from './vm-stats-routes';

/** Answers that are their view as it is: a token, a message. */
const asIs = <V extends object>(view: V): object => view;
// The same token under Waldur's two names: login's `CoreAuthToken`, refresh_token's `UserAuthToken`.
const loginToken = { schema: model('CoreAuthToken', tokenViewSchema), present: asIs };
const userToken = { schema: model('UserAuthToken', tokenViewSchema.extend({})), present: asIs };
const detail = { schema: model('Detail', detailViewSchema), present: asIs };

/** The public forms, as `present` builds them: the view plus absolute links. */
const customerSchema = model('Customer', customerViewSchema.extend({ url: z.url() }));
const projectSchema = model('Project', projectViewSchema.extend({ url: z.url(), customer: z.url() }));
const userSchema = model('User', userViewSchema.extend({ url: z.url() }));
const grantSchema = model(
  'UserRoleDetails',
  roleGrantViewSchema.extend({ user: z.url(), expiration_time: z.null() }),
);

interface Resource<V> {
  collection: string;
  tag: string;
  schema: z.ZodType;
  present: (view: V, links: Links) => object;
}

const customer: Resource<CustomerView> = {
  collection: 'customers',
  tag: 'customers',
  schema: customerSchema,
  present: present.customer,
};
const project: Resource<ProjectView> = {
  collection: 'projects',
  tag: 'projects',
  schema: projectSchema,
  present: present.project,
};
const user: Resource<UserView> = {
  collection: 'users',
  tag: 'users',
  schema: userSchema,
  present: present.user,
};

function crud<V>(
  resource: Resource<V>,
  ops: {
    list: AnyOperation;
    get: AnyOperation;
    create: AnyOperation;
    update: AnyOperation;
    delete: AnyOperation;
  },
  noun: string,
): ApiRoute[] {
  const base = `/api/${resource.collection}/`;
  const item = `${base}{uuid}/`;
  const tag = resource.tag;
  const id = resource.collection;
  return [
    route(
      'get',
      base,
      ops.list,
      { operationId: `${id}_list`, summary: `List ${noun}s the caller may see`, tag },
      { resource, list: true },
    ),
    route(
      'post',
      base,
      ops.create,
      { operationId: `${id}_create`, summary: `Create a ${noun}`, tag, status: 201 },
      { resource },
    ),
    route(
      'get',
      item,
      ops.get,
      { operationId: `${id}_retrieve`, summary: `Get a ${noun}`, tag },
      { resource },
    ),
    route(
      'patch',
      item,
      ops.update,
      { operationId: `${id}_partial_update`, summary: `Change a ${noun}`, tag },
      { resource },
    ),
    route('delete', item, ops.delete, { operationId: `${id}_destroy`, summary: `Delete a ${noun}`, tag }),
  ];
}

function roleGrants(
  resource: Resource<unknown>,
  ops: { listUsers: AnyOperation; addUser: AnyOperation; deleteUser: AnyOperation },
): ApiRoute[] {
  const item = `/api/${resource.collection}/{uuid}/`;
  const id = resource.collection;
  const grants = { schema: grantSchema, present: present.grant as Resource<RoleGrantView>['present'] };
  const tag = resource.tag;
  return [
    route(
      'get',
      `${item}list_users/`,
      ops.listUsers,
      { operationId: `${id}_list_users`, summary: 'List role grants', tag },
      { resource: grants, list: true },
    ),
    route(
      'post',
      `${item}add_user/`,
      ops.addUser,
      { operationId: `${id}_add_user`, summary: 'Grant a role to a user', tag, status: 201 },
      { resource: grants },
    ),
    route('post', `${item}delete_user/`, ops.deleteUser, {
      operationId: `${id}_delete_user`,
      summary: 'Revoke a role from a user',
      tag,
    }),
  ];
}

/** `POST …/set_quotas/` (NodeConductor's name): staff on an organisation, its owners on a project. */
function setQuotas<V>(resource: Resource<V>, op: AnyOperation, who: string): ApiRoute {
  return route(
    'post',
    `/api/${resource.collection}/{uuid}/set_quotas/`,
    op,
    {
      operationId: `${resource.collection}_set_quotas`,
      summary: `Set quota limits (-1 lifts one); ${who}`,
      tag: resource.tag,
    },
    { resource },
  );
}

/**
 * Every REST endpoint the services answer, in one table: the router registers exactly these, and
 * the OpenAPI document is generated from exactly these.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  ...crud(customer, CUSTOMERS, 'customer'),
  ...roleGrants(customer as Resource<unknown>, CUSTOMERS),
  setQuotas(customer, CUSTOMERS.setQuotas, 'staff only'),
  ...crud(project, PROJECTS, 'project'),
  ...roleGrants(project as Resource<unknown>, PROJECTS),
  setQuotas(project, PROJECTS.setQuotas, "the organisation's owners, never above the organisation's own"),
  // `me` before `{uuid}`: Express matches in order, and `me` is not a uuid anyway.
  route(
    'get',
    API_PATHS.usersMe,
    USERS.me,
    { operationId: 'users_me_retrieve', summary: 'The caller', tag: 'users' },
    { resource: user },
  ),
  ...crud(user, USERS, 'user'),
  route(
    'post',
    '/api/users/{uuid}/change_password/',
    USERS.changePassword,
    {
      operationId: 'users_change_password',
      summary: "Set a user's password",
      tag: 'users',
      throttled: true,
    },
    { resource: detail },
  ),
  route(
    'post',
    '/api/users/{uuid}/refresh_token/',
    USERS.refreshToken,
    {
      operationId: 'users_refresh_token',
      summary: 'Issue a new token for the user and revoke every earlier one',
      tag: 'users',
    },
    { resource: userToken },
  ),
  route('post', '/api/users/{uuid}/revoke_tokens/', USERS.revokeTokens, {
    operationId: 'users_revoke_tokens',
    summary: 'Revoke every token of the user',
    tag: 'users',
  }),
  route(
    'post',
    API_PATHS.login,
    LOGIN_OPERATION,
    {
      operationId: 'api_auth_password_create',
      summary: 'Log in: a new token for a username and password',
      tag: 'auth',
      throttled: true,
    },
    { resource: loginToken },
  ),
  ...MARKETPLACE_ROUTES,
  ...ORDER_ROUTES,
  ...VSPHERE_ROUTES,
  ...VIRTUAL_MACHINE_ROUTES,
  ...VM_DEVICE_ROUTES,
  ...VM_SNAPSHOT_ROUTES,
  ...VM_STATS_ROUTES,
];

/** Routes served by Nest controllers, documented with the rest. */
export const NEST_ROUTES: readonly NestRoute[] = [
  {
    kind: 'nest',
    method: 'get',
    path: '/health',
    operationId: 'health_retrieve',
    summary: 'Health of the gateway and every service',
    tag: 'health',
  },
];
