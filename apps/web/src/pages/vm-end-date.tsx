import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../api/client';
import type { Offering, Resource } from '../api/types';
import { describedBy, Field } from '../components/field';
import { Failure } from '../components/status';
import { useLoad } from '../components/use-load';
import { useMayAct } from '../components/use-may-act';
import { useFeed, useSession } from '../session';
import { leaseBounds } from './lease-bounds';

/**
 * The VM's end date (its marketplace resource's `end_date`): when the system terminates it with a
 * Terminate order. Shown to everyone who sees the VM; changed or removed (`set_end_date`) by those
 * who may act on it, within the offering's maximum lease. Another change arrives as
 * ResourceStateChanged.
 */
export function VmEndDate({ marketplaceResourceUuid }: { marketplaceResourceUuid: string }) {
  const { api } = useSession();
  const loaded = useLoad(`resource-${marketplaceResourceUuid}`, async (signal) => {
    const resource = await api.get<Resource>(
      fillPath(API_PATHS.resource, { uuid: marketplaceResourceUuid }),
      signal,
    );
    const offering = await api
      .get<Offering>(fillPath(API_PATHS.publicOffering, { uuid: resource.offering_uuid }), signal)
      .catch(() => undefined);
    return { resource, maxDays: offering?.max_resource_termination_offset_in_days ?? null };
  });
  const mayAct = useMayAct(loaded.data?.resource.project_uuid, loaded.data?.resource.customer_uuid);
  const [value, setValue] = useState<string | undefined>();
  const [errors, setErrors] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  useFeed(['ResourceStateChanged'], (event) => {
    const changed = event.data as Resource;
    if (changed.uuid !== marketplaceResourceUuid) return;
    loaded.setData((current) => current && { ...current, resource: changed });
  });

  if (loaded.error) return <Failure message={loaded.error} />;
  if (!loaded.data) return null;
  const { resource, maxDays } = loaded.data;
  const endDate = resource.end_date ?? null;
  const bounds = leaseBounds(maxDays);
  const shown = value ?? (endDate ? endDate.slice(0, 10) : '');

  const save = async (wanted: string | null) => {
    setErrors([]);
    setFailure(undefined);
    setSaving(true);
    try {
      const changed = await api.post<Resource>(
        `${fillPath(API_PATHS.resource, { uuid: marketplaceResourceUuid })}set_end_date/`,
        { end_date: wanted },
      );
      loaded.setData((current) => current && { ...current, resource: changed });
      setValue(undefined);
    } catch (refusal) {
      if (refusal instanceof ApiError && refusal.status === 400) setErrors(refusal.field('end_date'));
      else setFailure(messageOf(refusal));
    } finally {
      setSaving(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(shown === '' ? null : shown);
  };

  return (
    <section aria-labelledby="end-date-title">
      <h2 id="end-date-title">End date</h2>
      <p data-testid="end-date">
        {endDate
          ? `The system terminates this VM on ${new Date(endDate).toUTCString()}.`
          : 'No end date: the VM runs until it is terminated.'}
      </p>
      {mayAct === false && (
        <p className="hint" data-testid="end-date-read-only">
          Staff, the organisation&apos;s owners and the project&apos;s managers and admins may change it.
        </p>
      )}
      {mayAct && (
        <form className="end-date" onSubmit={submit} aria-busy={saving || undefined}>
          <Field id="end_date" label="New end date" errors={errors} hint={bounds.hint}>
            <input
              {...describedBy('end_date', errors, bounds.hint !== undefined)}
              type="date"
              min={bounds.min}
              max={bounds.max}
              value={shown}
              onChange={(event) => setValue(event.target.value)}
            />
          </Field>
          <Failure message={failure} />
          <div className="actions">
            <button type="submit" disabled={saving}>
              Set end date
            </button>
            {endDate && (
              <button type="button" className="secondary" disabled={saving} onClick={() => void save(null)}>
                Remove end date
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
