import { ORDER_TYPES, type ProjectRole } from '@app/contracts';
import type { Principal } from '../../identity';
import {
  checkAction,
  decideOrderCreate,
  initialState,
  resourceStateAfter,
  resourceStateWhilePending,
  type OrderScope,
} from './order-review';

const CONSUMER = 'consumer-org';
const PROVIDER = 'provider-org';
const PROJECT = { uuid: 'project-1', customerUuid: CONSUMER };

function principal(overrides: Partial<Principal> & { roles?: ProjectRole[]; uuid?: string } = {}): Principal {
  const projectRoles = new Map<string, { customerUuid: string; roles: Set<ProjectRole> }>();
  if (overrides.roles?.length)
    projectRoles.set(PROJECT.uuid, { customerUuid: CONSUMER, roles: new Set(overrides.roles) });
  return {
    userUuid: overrides.uuid ?? 'me',
    isStaff: overrides.isStaff ?? false,
    ownedCustomers: overrides.ownedCustomers ?? new Set(),
    projectRoles,
  };
}

const staff = principal({ isStaff: true });
const owner = principal({ ownedCustomers: new Set([CONSUMER]) });
const manager = principal({ roles: ['PROJECT.MANAGER'] });
const admin = principal({ roles: ['PROJECT.ADMIN'] });
const member = principal({ roles: ['PROJECT.MEMBER'] });
const providerOwner = principal({ ownedCustomers: new Set([PROVIDER]) });
const stranger = principal();

function scope(overrides: Partial<OrderScope> = {}): OrderScope {
  return {
    project: PROJECT,
    providerUuid: PROVIDER,
    offeringType: 'Marketplace.Basic',
    type: 'Create',
    createdBy: 'someone',
    ...overrides,
  };
}
const vmware = scope({ offeringType: 'VMware.VirtualMachine' });

describe('who orders in a project', () => {
  it('lets staff, owners, managers and admins order; members look; strangers see nothing', () => {
    expect([staff, owner, manager, admin].map((who) => decideOrderCreate(who, PROJECT))).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
    ]);
    expect(decideOrderCreate(member, PROJECT)).toBe('forbid');
    expect(decideOrderCreate(stranger, PROJECT)).toBe('hide');
    expect(decideOrderCreate(providerOwner, PROJECT)).toBe('hide');
  });
});

describe('the state an order starts in', () => {
  it('skips consumer review for staff, organisation owners and project managers', () => {
    for (const who of [staff, owner, manager]) {
      expect(initialState(who, scope())).toBe('pending-provider');
      expect(initialState(who, vmware)).toBe('executing');
    }
  });

  it('sends an admin’s order to the consumer’s approvers first', () => {
    expect(initialState(admin, scope())).toBe('pending-consumer');
    expect(initialState(admin, vmware)).toBe('pending-consumer');
  });

  it('lets the provider’s owner terminate without consumer review (Waldur)', () => {
    expect(initialState(providerOwner, { ...vmware, type: 'Terminate' })).toBe('executing');
    expect(initialState(providerOwner, { ...vmware, type: 'Update' })).toBe('pending-consumer');
  });
});

describe('review actions', () => {
  it('routes a consumer approval like a creation: Basic to the provider, VMware to execution', () => {
    expect(checkAction('approve_by_consumer', manager, scope(), 'pending-consumer')).toEqual({
      ok: true,
      to: 'pending-provider',
    });
    expect(checkAction('approve_by_consumer', owner, vmware, 'pending-consumer')).toEqual({
      ok: true,
      to: 'executing',
    });
  });

  it('lets only the provider’s owners (or staff) approve, reject and complete as provider', () => {
    expect(checkAction('approve_by_provider', providerOwner, scope(), 'pending-provider')).toEqual({
      ok: true,
      to: 'executing',
    });
    expect(checkAction('approve_by_provider', owner, scope(), 'pending-provider')).toEqual({
      ok: false,
      decision: 'forbid',
    });
    expect(checkAction('reject_by_provider', staff, scope(), 'pending-provider')).toEqual({
      ok: true,
      to: 'rejected',
    });
    expect(checkAction('set_state_done', providerOwner, scope(), 'executing')).toEqual({
      ok: true,
      to: 'done',
    });
    expect(checkAction('set_state_erred', providerOwner, scope(), 'executing')).toEqual({
      ok: true,
      to: 'erred',
    });
  });

  it('hides the order from whoever sees neither its project nor its provider', () => {
    expect(checkAction('cancel', stranger, scope(), 'pending-provider')).toEqual({
      ok: false,
      decision: 'hide',
    });
    expect(checkAction('approve_by_consumer', member, scope(), 'pending-consumer')).toEqual({
      ok: false,
      decision: 'forbid',
    });
  });

  it('refuses an action in the wrong state with the states it needs', () => {
    expect(checkAction('approve_by_provider', providerOwner, scope(), 'pending-consumer')).toEqual({
      ok: false,
      conflict: 'Order is pending-consumer: only pending-provider orders can be approved by the provider.',
    });
    expect(checkAction('set_state_done', providerOwner, scope(), 'done')).toMatchObject({ ok: false });
    expect(checkAction('cancel', owner, scope(), 'done')).toEqual({
      ok: false,
      conflict: 'Order is done: only pending-consumer, pending-provider, executing orders can be canceled.',
    });
    expect(checkAction('retry', owner, scope(), 'executing')).toMatchObject({ ok: false });
  });

  it('cancels and completes by hand only Marketplace.Basic orders', () => {
    expect(checkAction('cancel', owner, scope(), 'pending-provider')).toEqual({ ok: true, to: 'canceled' });
    expect(checkAction('cancel', owner, vmware, 'executing')).toEqual({
      ok: false,
      conflict:
        'Only orders of Marketplace.Basic, OpenStack.Tenant, OpenStack.Instance, OpenStack.Volume offerings can be canceled; this offering is VMware.VirtualMachine.',
    });
    expect(checkAction('set_state_done', staff, vmware, 'executing')).toMatchObject({ ok: false });
  });

  it('processes OpenStack orders by hand as Basic ones: the provider approves, then completes or fails them', () => {
    for (const offeringType of ['OpenStack.Tenant', 'OpenStack.Instance', 'OpenStack.Volume']) {
      const openstack = scope({ offeringType });
      expect(initialState(owner, openstack)).toBe('pending-provider');
      expect(checkAction('approve_by_provider', providerOwner, openstack, 'pending-provider')).toEqual({
        ok: true,
        to: 'executing',
      });
      expect(checkAction('set_state_done', providerOwner, openstack, 'executing')).toEqual({
        ok: true,
        to: 'done',
      });
      expect(checkAction('set_state_erred', providerOwner, openstack, 'executing')).toEqual({
        ok: true,
        to: 'erred',
      });
    }
  });

  it('lets the author cancel their own order, and retries an erred one into execution', () => {
    const author = principal({ roles: ['PROJECT.ADMIN'], uuid: 'someone' });
    expect(checkAction('cancel', author, scope(), 'pending-consumer')).toEqual({ ok: true, to: 'canceled' });
    expect(checkAction('cancel', admin, scope(), 'pending-consumer')).toEqual({
      ok: false,
      decision: 'forbid',
    });
    expect(checkAction('retry', providerOwner, vmware, 'erred')).toEqual({ ok: true, to: 'executing' });
  });
});

describe('the resource of an order', () => {
  it('waits in Creating, Updating or Terminating while its order is open', () => {
    expect(resourceStateWhilePending('Create')).toBe('Creating');
    expect(resourceStateWhilePending('Update')).toBe('Updating');
    expect(resourceStateWhilePending('Terminate')).toBe('Terminating');
  });

  it('ends OK, Terminated or Erred, and goes back as it was when a change is refused', () => {
    expect(resourceStateAfter('Create', 'done', 'OK')).toBe('OK');
    expect(resourceStateAfter('Update', 'done', 'OK')).toBe('OK');
    expect(resourceStateAfter('Terminate', 'done', 'OK')).toBe('Terminated');
    for (const type of ORDER_TYPES) expect(resourceStateAfter(type, 'erred', 'OK')).toBe('Erred');
    expect(resourceStateAfter('Create', 'rejected', 'OK')).toBe('Terminated');
    expect(resourceStateAfter('Update', 'canceled', 'OK')).toBe('OK');
    expect(resourceStateAfter('Terminate', 'rejected', 'Erred')).toBe('Erred');
  });
});
