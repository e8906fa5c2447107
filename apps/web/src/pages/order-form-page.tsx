import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, messageOf, type ApiClient } from '../api/client';
import { newIdempotencyKey } from '../api/idempotency-key';
import type { Named, Offering, Order, Template } from '../api/types';
import { VMWARE_VM_TYPE } from '../api/vocabulary';
import { describedBy, Field } from '../components/field';
import { Failure } from '../components/status';
import { useLoad } from '../components/use-load';
import { useOnceAtATime } from '../components/use-once-at-a-time';
import { LatestAnswer } from '../api/latest-answer';
import { navigate } from '../router';
import { leaseBounds } from './lease-bounds';
import { monthlyEstimate } from './monthly-estimate';
import { useSession } from '../session';

/** How long typing pauses before the server's dry run checks the order. */
const DRY_RUN_DELAY_MS = 400;

interface Inventory {
  templates: Template[];
  clusters: Named[];
  networks: Named[];
  datastores: Named[];
  folders: Named[];
  limits: Record<string, number | null>;
}

interface Values {
  name: string;
  description: string;
  plan: string;
  template: string;
  cpu: string;
  cores_per_socket: string;
  ram: string;
  disk: string;
  cluster: string;
  datastore: string;
  folder: string;
  networks: string[];
  /** An ISO date, or '' for none. */
  end_date: string;
  accept: boolean;
}

type Errors = Record<string, string[]>;

const VERDICTS = {
  none: '',
  accepted: 'The server accepts this order.',
  refused: 'The server would refuse this order as it stands.',
} as const;

/** The fields this form shows; a message for any other key of a 400 is listed above the buttons. */
const FORM_FIELDS = new Set([
  'name',
  'description',
  'plan',
  'template',
  'cpu',
  'cores_per_socket',
  'ram',
  'disk',
  'cluster',
  'datastore',
  'folder',
  'networks',
  'end_date',
  'accepting_terms_of_service',
]);

async function loadInventory(api: ApiClient, offering: string, signal: AbortSignal): Promise<Inventory> {
  const list = <T,>(path: string) => api.get<T[]>(`${path}?offering_uuid=${offering}&page_size=200`, signal);
  const [templates, clusters, networks, datastores, folders, limits] = await Promise.all([
    list<Template>(API_PATHS.vmwareTemplates),
    list<Named>(API_PATHS.vmwareClusters),
    list<Named>(API_PATHS.vmwareNetworks),
    list<Named>(API_PATHS.vmwareDatastores),
    list<Named>(API_PATHS.vmwareFolders),
    api.get<Record<string, number | null>>(
      fillPath(API_PATHS.vmwareLimits, { offering_uuid: offering }),
      signal,
    ),
  ]);
  return { templates, clusters, networks, datastores, folders, limits };
}

/**
 * An order form generated from the offering's type: for `VMware.VirtualMachine` the template and
 * its hardware, and placement lists holding only what the organisation may use. The server's dry
 * run checks the order as the user types, so each message stands next to its field before submit.
 */
export function OrderFormPage({ offeringUuid }: { offeringUuid: string }) {
  const { api, project } = useSession();
  const loaded = useLoad(`offering-${offeringUuid}`, async (signal) => {
    const offering = await api.get<Offering>(
      fillPath(API_PATHS.publicOffering, { uuid: offeringUuid }),
      signal,
    );
    const inventory =
      offering.type === VMWARE_VM_TYPE ? await loadInventory(api, offeringUuid, signal) : undefined;
    return { offering, inventory };
  });
  if (loaded.error) return <Failure message={loaded.error} />;
  if (!loaded.data) return <p className="loading">Loading the offering…</p>;
  if (!project)
    return <p>You are in no project: an organisation owner must add you to one before you can order.</p>;
  return (
    <OrderForm offering={loaded.data.offering} inventory={loaded.data.inventory} projectUrl={project.url} />
  );
}

function initialValues(offering: Offering, inventory: Inventory | undefined): Values {
  const template = inventory?.templates[0];
  return {
    name: '',
    description: '',
    plan: offering.plans.find((p) => !p.archived)?.uuid ?? '',
    template: template?.uuid ?? '',
    cpu: template ? String(template.cores) : '',
    cores_per_socket: template ? String(template.cores_per_socket) : '',
    ram: template ? String(template.ram) : '',
    disk: template ? String(template.disk) : '',
    cluster: '',
    datastore: '',
    folder: '',
    networks: [],
    end_date: '',
    accept: offering.terms_of_service === '',
  };
}

function OrderForm({
  offering,
  inventory,
  projectUrl,
}: {
  offering: Offering;
  inventory: Inventory | undefined;
  projectUrl: string;
}) {
  const { api } = useSession();
  const [values, setValues] = useState<Values>(() => initialValues(offering, inventory));
  // One Idempotency-Key per intent: sent again for the same form (a retry after no answer finds the
  // order the first POST made), a new one once the form changes.
  const intent = useRef(newIdempotencyKey());
  useEffect(() => {
    intent.current = newIdempotencyKey();
  }, [values]);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Errors>({});
  const [cost, setCost] = useState<string | null>(null);
  const [verdict, setVerdict] = useState<'none' | 'accepted' | 'refused'>('none');
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const dryRun = useRef<AbortController | undefined>(undefined);
  const dryRunAnswers = useRef(new LatestAnswer());

  const origin = window.location.origin;
  const body = (v: Values) => {
    const link = (kind: string, uuid: string) => (uuid ? `${origin}/api/${kind}/${uuid}/` : undefined);
    const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
    const vmware = offering.type === VMWARE_VM_TYPE;
    return {
      offering: offering.url,
      project: projectUrl,
      plan: v.plan ? `${offering.url}plans/${v.plan}/` : undefined,
      accepting_terms_of_service: v.accept,
      attributes: vmware
        ? {
            name: v.name,
            description: v.description,
            template: link('vmware-templates', v.template),
            cores_per_socket: number(v.cores_per_socket),
            cluster: link('vmware-clusters', v.cluster),
            datastore: link('vmware-datastores', v.datastore),
            folder: link('vmware-folders', v.folder),
            networks: v.networks.map((uuid) => ({ url: link('vmware-networks', uuid) })),
            end_date: v.end_date || undefined,
          }
        : { name: v.name, description: v.description, end_date: v.end_date || undefined },
      limits: vmware ? { cpu: number(v.cpu), ram: number(v.ram), disk: number(v.disk) } : {},
    };
  };

  // The dry run, once typing pauses: what the server would answer, without creating anything. An
  // answer to an earlier input is stale the moment the input changes, however late it arrives.
  useEffect(() => {
    dryRun.current?.abort();
    dryRunAnswers.current.invalidate();
    setChecking(true);
    const timer = setTimeout(() => {
      const abort = new AbortController();
      dryRun.current = abort;
      const ticket = dryRunAnswers.current.next();
      const current = () => !abort.signal.aborted && dryRunAnswers.current.isLatest(ticket);
      api.post<Order>(`${API_PATHS.orders}?dry_run=true`, body(values), abort.signal).then(
        (order) => {
          if (!current()) return;
          setErrors({});
          setCost(order.cost);
          setVerdict('accepted');
          setChecking(false);
        },
        (refusal: unknown) => {
          if (!current()) return;
          setChecking(false);
          if (refusal instanceof ApiError && refusal.status === 400) {
            setErrors(refusal.body as Errors);
            setCost(null);
            setVerdict('refused');
          } else setFailure(messageOf(refusal));
        },
      );
    }, DRY_RUN_DELAY_MS);
    return () => clearTimeout(timer);
    // The body is built from `values` and the fixed offering and project.
  }, [values]);

  const set = <K extends keyof Values>(key: K, value: Values[K], field: string = key) => {
    setValues((current) => ({ ...current, [key]: value }));
    setTouched((current) => new Set(current).add(field));
  };

  const chooseTemplate = (uuid: string) => {
    const template = inventory?.templates.find((t) => t.uuid === uuid);
    setValues((current) => ({
      ...current,
      template: uuid,
      ...(template && {
        cpu: String(template.cores),
        cores_per_socket: String(template.cores_per_socket),
        ram: String(template.ram),
        disk: String(template.disk),
      }),
    }));
    setTouched((current) => new Set(current).add('template'));
  };

  /** A field's messages once the user has been there (or tried to submit). */
  const shown = (field: string): string[] =>
    submitted || touched.has(field) ? (errors[field] ?? []).map(String) : [];
  const others = Object.entries(errors)
    .filter(([field]) => !FORM_FIELDS.has(field))
    .flatMap(([field, messages]) =>
      (Array.isArray(messages) ? messages : [String(messages)]).map((m) =>
        field === 'detail' ? m : `${field}: ${m}`,
      ),
    );

  // One order per intent: a double click or Enter pressed twice while the POST is on its way sends nothing more.
  const order = useOnceAtATime(async () => {
    setSubmitted(true);
    setFailure(undefined);
    dryRun.current?.abort();
    dryRunAnswers.current.invalidate();
    setChecking(false);
    try {
      const made = await api.post<Order>(API_PATHS.orders, body(values), undefined, intent.current);
      navigate(`/orders/${made.uuid}`);
    } catch (refusal) {
      if (refusal instanceof ApiError && refusal.status === 400) setErrors(refusal.body as Errors);
      else setFailure(messageOf(refusal));
    }
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void order.run();
  };

  const template = inventory?.templates.find((t) => t.uuid === values.template);
  const limits = inventory?.limits ?? {};
  const max = (key: string) => (limits[key] ? `at most ${limits[key]}` : undefined);
  // The system terminates what is ordered at its end date: at most the offering's maximum lease ahead.
  const lease = leaseBounds(offering.max_resource_termination_offset_in_days ?? null);

  return (
    <section aria-labelledby="order-title">
      <h1 id="order-title">Order {offering.name}</h1>
      <p className="meta">
        {offering.type} · provided by {offering.customer_name}
      </p>
      <form className="order-form" onSubmit={submit} noValidate aria-busy={order.pending || undefined}>
        <Field id="name" label="Name" errors={shown('name')}>
          <input
            {...describedBy('name', shown('name'))}
            value={values.name}
            required
            onChange={(event) => set('name', event.target.value)}
          />
        </Field>
        <Field id="description" label="Description" errors={shown('description')}>
          <textarea
            {...describedBy('description', shown('description'))}
            value={values.description}
            rows={2}
            onChange={(event) => set('description', event.target.value)}
          />
        </Field>
        <Field id="plan" label="Plan" errors={shown('plan')}>
          <select
            {...describedBy('plan', shown('plan'))}
            value={values.plan}
            onChange={(e) => set('plan', e.target.value)}
          >
            {offering.plans
              .filter((plan) => !plan.archived)
              .map((plan) => (
                <option key={plan.uuid} value={plan.uuid}>
                  {plan.name}
                </option>
              ))}
          </select>
        </Field>
        {inventory && (
          <>
            <Field
              id="template"
              label="Template"
              errors={shown('template')}
              hint={
                template &&
                `${template.os} ${template.os_version}: ${template.cores} vCPU, ${template.ram} MiB RAM, ${template.disk} MiB disk`
              }
            >
              <select
                {...describedBy('template', shown('template'), template !== undefined)}
                value={values.template}
                onChange={(event) => chooseTemplate(event.target.value)}
              >
                {inventory.templates.map((t) => (
                  <option key={t.uuid} value={t.uuid}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
            <div className="row">
              <NumberField
                id="cpu"
                label="vCPU"
                value={values.cpu}
                errors={shown('cpu')}
                hint={max('max_cpu')}
                onChange={(v) => set('cpu', v)}
              />
              <NumberField
                id="cores_per_socket"
                label="Cores per socket"
                value={values.cores_per_socket}
                errors={shown('cores_per_socket')}
                hint={max('max_cores_per_socket')}
                onChange={(v) => set('cores_per_socket', v)}
              />
              <NumberField
                id="ram"
                label="RAM (MiB)"
                value={values.ram}
                errors={shown('ram')}
                hint={max('max_ram')}
                step={1024}
                onChange={(v) => set('ram', v)}
              />
              <NumberField
                id="disk"
                label="Disk (MiB)"
                value={values.disk}
                errors={shown('disk')}
                hint={max('max_disk')}
                step={1024}
                onChange={(v) => set('disk', v)}
              />
            </div>
            <div className="row">
              <PlacementField
                id="cluster"
                label="Cluster"
                options={inventory.clusters}
                value={values.cluster}
                errors={shown('cluster')}
                onChange={(v) => set('cluster', v)}
              />
              <PlacementField
                id="datastore"
                label="Datastore"
                options={inventory.datastores}
                value={values.datastore}
                errors={shown('datastore')}
                onChange={(v) => set('datastore', v)}
              />
              <PlacementField
                id="folder"
                label="Folder"
                options={inventory.folders}
                value={values.folder}
                errors={shown('folder')}
                onChange={(v) => set('folder', v)}
              />
            </div>
            <fieldset
              className={shown('networks').length > 0 ? 'field invalid' : 'field'}
              aria-describedby={shown('networks').length > 0 ? 'networks-error' : 'networks-hint'}
            >
              <legend>Networks</legend>
              {inventory.networks.length === 0 && (
                <p className="hint" id="networks-hint">
                  None assigned to your organisation: the VM keeps the template's network.
                </p>
              )}
              {inventory.networks.map((network) => (
                <label key={network.uuid} className="check">
                  <input
                    type="checkbox"
                    checked={values.networks.includes(network.uuid)}
                    onChange={(event) =>
                      set(
                        'networks',
                        event.target.checked
                          ? [...values.networks, network.uuid]
                          : values.networks.filter((uuid) => uuid !== network.uuid),
                      )
                    }
                  />
                  {network.name}
                </label>
              ))}
              {shown('networks').length > 0 && (
                <ul className="field-errors" id="networks-error" data-field-error="networks">
                  {shown('networks').map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              )}
            </fieldset>
          </>
        )}
        <Field id="end_date" label="End date (optional)" errors={shown('end_date')} hint={lease.hint}>
          <input
            {...describedBy('end_date', shown('end_date'), lease.hint !== undefined)}
            type="date"
            min={lease.min}
            max={lease.max}
            value={values.end_date}
            onChange={(event) => set('end_date', event.target.value)}
          />
        </Field>
        {offering.terms_of_service && (
          <Field
            id="terms"
            label="Terms of service"
            errors={shown('accepting_terms_of_service')}
            hint={offering.terms_of_service}
          >
            <label className="check">
              <input
                type="checkbox"
                {...describedBy('terms', shown('accepting_terms_of_service'), true)}
                checked={values.accept}
                onChange={(event) => set('accept', event.target.checked, 'accepting_terms_of_service')}
              />
              I accept the terms of service
            </label>
          </Field>
        )}
        <div className="summary" aria-live="polite">
          <p>
            Monthly estimate:{' '}
            <strong data-testid="estimate">
              {cost ??
                monthlyEstimate(offering, values.plan, {
                  cpu: values.cpu,
                  ram: values.ram,
                  disk: values.disk,
                }) ??
                '—'}
            </strong>
          </p>
          <p data-testid="dry-run">{checking ? 'Checking…' : VERDICTS[verdict]}</p>
          {others.map((message) => (
            <p key={message} className="error">
              {message}
            </p>
          ))}
        </div>
        <Failure message={failure} />
        <button type="submit" disabled={order.pending}>
          {order.pending ? 'Ordering…' : 'Order'}
        </button>
      </form>
    </section>
  );
}

function NumberField(props: {
  id: string;
  label: string;
  value: string;
  errors: string[];
  hint?: string;
  step?: number;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} errors={props.errors} hint={props.hint}>
      <input
        {...describedBy(props.id, props.errors, props.hint !== undefined)}
        type="number"
        inputMode="numeric"
        min={1}
        step={props.step ?? 1}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  );
}

function PlacementField(props: {
  id: string;
  label: string;
  options: Named[];
  value: string;
  errors: string[];
  onChange: (value: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} errors={props.errors}>
      <select
        {...describedBy(props.id, props.errors)}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <option value="">Default</option>
        {props.options.map((option) => (
          <option key={option.uuid} value={option.uuid}>
            {option.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
