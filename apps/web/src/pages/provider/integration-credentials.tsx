import { fillPath, providerOfferingActionPath } from '@app/contracts/http/api-paths';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../../api/client';
import type { Integration } from '../../api/types';
import { describedBy, Field } from '../../components/field';
import { useSession } from '../../session';

type Kind = 'text' | 'url' | 'password' | 'maximum' | 'boolean' | 'pem';

interface Spec {
  name: string;
  label: string;
  kind: Kind;
  hint?: string;
}

/** The `service_attributes` the API takes, in the order the seed's Credentials tab lists them. */
const FIELDS: readonly Spec[] = [
  { name: 'backend_url', label: 'vCenter URL', kind: 'url', hint: 'https://vcenter.example.org[:port]' },
  {
    name: 'username',
    label: 'Username',
    kind: 'text',
    hint: 'The service account, e.g. waldur@vsphere.local',
  },
  { name: 'password', label: 'Password', kind: 'password' },
  {
    name: 'default_cluster_label',
    label: 'Default cluster label',
    kind: 'text',
    hint: 'The cluster new VMs go to when the organisation has none of its own.',
  },
  { name: 'max_cpu', label: 'Maximum vCPU per VM', kind: 'maximum' },
  { name: 'max_cores_per_socket', label: 'Maximum cores per socket', kind: 'maximum' },
  { name: 'max_ram', label: 'Maximum RAM per VM (MiB)', kind: 'maximum' },
  { name: 'max_disk', label: 'Maximum size of one disk (MiB)', kind: 'maximum' },
  { name: 'max_disk_total', label: 'Maximum disk space per VM (MiB)', kind: 'maximum' },
  {
    name: 'max_snapshots',
    label: 'Maximum snapshots per VM',
    kind: 'maximum',
    hint: '0 to 32; 0 turns snapshots off.',
  },
  {
    name: 'snapshot_max_age_hours',
    label: 'Snapshot age warning (hours)',
    kind: 'maximum',
    hint: 'Snapshots older than this are flagged to their users.',
  },
  { name: 'memory_snapshots', label: 'Allow snapshots with memory', kind: 'boolean' },
  { name: 'verify_ssl', label: "Verify vCenter's TLS certificate", kind: 'boolean' },
  {
    name: 'ca_pem',
    label: 'CA certificate (PEM)',
    kind: 'pem',
    hint: 'Trusted when the certificate is verified; empty: the system’s CAs.',
  },
];

/** The saved value of a field as the form shows it ("" for none); the password is never there. */
function shown(integration: Integration | null, spec: Spec): string {
  if (!integration || spec.kind === 'password') return '';
  const value = (integration as unknown as Record<string, unknown>)[spec.name];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

/** What the API takes for a field: a maximum left empty clears it (null: unlimited). */
function wire(spec: Spec, text: string): unknown {
  if (spec.kind === 'maximum') return text.trim() === '' ? null : text.trim();
  if (spec.kind === 'pem') return text.trim() === '' ? null : text;
  return text;
}

/** The 400's messages for one attribute: the API names it `service_attributes.<name>`. */
function messagesFor(refusal: unknown, name: string): string[] {
  if (!(refusal instanceof ApiError)) return [messageOf(refusal)];
  const own = [...refusal.field(`service_attributes.${name}`), ...refusal.field(name)];
  return own.length > 0 ? own : [refusal.message];
}

/**
 * The vCenter credentials, each field saved on its own (`POST .../update_integration/` with that one
 * attribute), its status and the API's messages next to it. The password is write-only: its input
 * is always empty, emptied again once sent, and only `password_set` tells whether one is stored.
 */
export function IntegrationCredentials({
  offeringUuid,
  integration,
  onSaved,
}: {
  offeringUuid: string;
  integration: Integration | null;
  onSaved: (view: Integration) => void;
}) {
  return (
    <section aria-labelledby="credentials-title">
      <h2 id="credentials-title">Credentials</h2>
      <p className="hint">Each field is saved on its own; every save synchronises again.</p>
      {(integration?.warnings ?? []).map((warning) => (
        <p key={warning} className="error" data-testid="integration-warning">
          {warning}
        </p>
      ))}
      <div className="credentials">
        {FIELDS.map((spec) => (
          <CredentialField
            key={spec.name}
            spec={spec}
            offeringUuid={offeringUuid}
            integration={integration}
            onSaved={onSaved}
          />
        ))}
      </div>
    </section>
  );
}

type Status =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'refused'; errors: string[] };

const STATUS_TEXT: Record<Status['kind'], string> = {
  idle: '',
  saving: 'Saving…',
  saved: 'Saved.',
  refused: 'Not saved.',
};

/** The input type of each kind that is an `<input>` (a PEM is a textarea, a boolean a checkbox). */
const INPUT_TYPE: Record<Exclude<Kind, 'boolean' | 'pem'>, string> = {
  text: 'text',
  url: 'url',
  password: 'password',
  maximum: 'number',
};

function CredentialField({
  spec,
  offeringUuid,
  integration,
  onSaved,
}: {
  spec: Spec;
  offeringUuid: string;
  integration: Integration | null;
  onSaved: (view: Integration) => void;
}) {
  const { api } = useSession();
  // What the user typed and has not saved; undefined shows the saved value (kept current by events).
  const [draft, setDraft] = useState<string | undefined>();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const id = `cred-${spec.name}`;
  const saved = shown(integration, spec);
  const value = draft ?? saved;
  const errors = status.kind === 'refused' ? status.errors : [];

  const save = async (attribute: unknown) => {
    setStatus({ kind: 'saving' });
    try {
      const view = await api.post<Integration>(
        fillPath(providerOfferingActionPath('update_integration'), { uuid: offeringUuid }),
        { service_attributes: { [spec.name]: attribute } },
      );
      setDraft(undefined);
      setStatus({ kind: 'saved' });
      onSaved(view);
    } catch (refusal) {
      // The password is not kept for a second try: the field is emptied whatever the answer.
      if (spec.kind === 'password') setDraft(undefined);
      setStatus({ kind: 'refused', errors: messagesFor(refusal, spec.name) });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(wire(spec, value));
  };

  const hint =
    spec.kind === 'password'
      ? integration?.password_set
        ? 'A password is set. It is never shown; type a new one to replace it.'
        : 'No password set.'
      : spec.hint;
  const statusText = STATUS_TEXT[status.kind];

  if (spec.kind === 'boolean')
    return (
      <form className="credential" onSubmit={(event) => event.preventDefault()} data-credential={spec.name}>
        <div className={errors.length > 0 ? 'field invalid' : 'field'}>
          <label className="check" htmlFor={id}>
            <input
              {...describedBy(id, errors)}
              type="checkbox"
              checked={value === 'true'}
              disabled={status.kind === 'saving'}
              onChange={(event) => void save(event.target.checked)}
            />
            {spec.label}
          </label>
          {errors.length > 0 && (
            <ul className="field-errors" id={`${id}-error`} data-field-error={spec.name}>
              {errors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </div>
        <span className="save-status" role="status" data-testid={`status-${spec.name}`}>
          {statusText}
        </span>
      </form>
    );

  const control = {
    ...describedBy(id, errors, Boolean(hint)),
    value,
    onChange: (event: { target: { value: string } }) => {
      setDraft(event.target.value);
      if (status.kind !== 'saving') setStatus({ kind: 'idle' });
    },
  };
  return (
    <form className="credential" onSubmit={submit} data-credential={spec.name}>
      <Field id={id} label={spec.label} errors={errors} hint={hint}>
        {spec.kind === 'pem' ? (
          <textarea {...control} rows={3} spellCheck={false} />
        ) : (
          <input
            {...control}
            type={INPUT_TYPE[spec.kind]}
            min={spec.kind === 'maximum' ? 1 : undefined}
            autoComplete={spec.kind === 'password' ? 'new-password' : 'off'}
          />
        )}
      </Field>
      <div className="credential-save">
        <button
          type="submit"
          className="secondary"
          disabled={status.kind === 'saving' || draft === undefined}
        >
          Save<span className="visually-hidden"> {spec.label}</span>
        </button>
        <span className="save-status" role="status" data-testid={`status-${spec.name}`}>
          {statusText}
        </span>
      </div>
    </form>
  );
}
