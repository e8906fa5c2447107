import { API_PATHS, fillPath, providerOfferingActionPath } from '@app/contracts/http/api-paths';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import type { Integration, Offering } from '../../api/types';
import { VMWARE_VM_TYPE } from '../../api/vocabulary';
import { Failure, StateBadge } from '../../components/status';
import { useLoad } from '../../components/use-load';
import { Link } from '../../router';
import { useFeed, useSession } from '../../session';
import { CustomerAssignments } from './customer-assignments';
import { IntegrationCredentials } from './integration-credentials';
import {
  INTEGRATION_EVENTS,
  integrationEvent,
  integrationOf,
  type IntegrationEvent,
} from './integration-events';
import { IntegrationSync } from './integration-sync';

/**
 * One offering as its provider (or staff) manages it: its integration's state, the credentials
 * saved field by field, a synchronisation on demand followed live, and — for staff, who alone may
 * make them — the organisations' assignments of its vCenter objects.
 */
export default function ProviderOfferingPage({ uuid }: { uuid: string }) {
  const { api, user } = useSession();
  const offering = useLoad(`provider-offering:${uuid}`, (signal) =>
    api.get<Offering>(fillPath(API_PATHS.providerOffering, { uuid }), signal),
  );
  const integration = useLoad(`integration:${uuid}`, async (signal) => {
    try {
      return await api.get<Integration>(
        fillPath(providerOfferingActionPath('integration'), { uuid }),
        signal,
      );
    } catch (failure) {
      // Never saved yet: the form starts empty and the first field saved creates it.
      if (failure instanceof ApiError && failure.status === 404) return null;
      throw failure;
    }
  });
  // What the adapter reported while the page was open, newest last: the sync's live progress.
  const [events, setEvents] = useState<IntegrationEvent[]>([]);

  useFeed(['OfferingChanged'], (event) => {
    const changed = event.data as Offering;
    if (changed.uuid === uuid)
      offering.setData((current) => (current ? { ...current, ...changed } : current));
  });
  useFeed(INTEGRATION_EVENTS, (event) => {
    const known = integrationEvent(event);
    const view = known && integrationOf(known, uuid);
    if (!known || !view) return;
    integration.setData(() => view);
    setEvents((current) => [...current.slice(-19), known]);
  });

  const current = integration.data;
  const isVsphere = offering.data?.type === VMWARE_VM_TYPE;
  return (
    <section aria-labelledby="offering-title">
      <p>
        <Link href="/provider/offerings">All your offerings</Link>
      </p>
      <Failure message={offering.error} />
      {offering.data && (
        <>
          <h1 id="offering-title">{offering.data.name}</h1>
          <dl className="details">
            <dt>Provider</dt>
            <dd>{offering.data.customer_name}</dd>
            <dt>Type</dt>
            <dd>{offering.data.type}</dd>
            <dt>State</dt>
            <dd data-testid="offering-state">
              <StateBadge state={offering.data.state} />
            </dd>
            {isVsphere && (
              <>
                <dt>Integration</dt>
                <dd data-testid="integration-state">
                  {current ? <StateBadge state={current.state} /> : current === null ? 'Not connected' : '…'}
                  {current?.error_message && (
                    <p className="error" data-testid="integration-error">
                      {current.error_message}
                    </p>
                  )}
                </dd>
              </>
            )}
          </dl>
        </>
      )}
      <Failure message={integration.error} />
      {isVsphere && current !== undefined && (
        <>
          <IntegrationSync
            offeringUuid={uuid}
            integration={current}
            events={events}
            onAnswer={(accepted) =>
              integration.setData((view) =>
                view
                  ? {
                      ...view,
                      sync_state: accepted.sync_state,
                      state: accepted.state,
                      error_message: accepted.error_message,
                    }
                  : view,
              )
            }
          />
          <IntegrationCredentials
            offeringUuid={uuid}
            integration={current}
            onSaved={(saved) =>
              // An event about a later change may have come before this answer: the newer view stays.
              integration.setData((view) =>
                view && Date.parse(view.modified) > Date.parse(saved.modified) ? view : saved,
              )
            }
          />
          {user.is_staff && <CustomerAssignments offeringUuid={uuid} />}
        </>
      )}
    </section>
  );
}
