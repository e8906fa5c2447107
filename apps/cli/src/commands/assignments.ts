import { randomUUID } from 'node:crypto';
import {
  ASSIGNMENT_FIELDS,
  ASSIGNMENT_KINDS,
  ASSIGNMENT_OPERATIONS,
  assignmentListQuery,
  VMWARE_ASSIGNMENT_PATHS,
  type AssignmentKind,
} from '@app/contracts';
import type { z } from 'zod';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { checkBody } from '../input/checked-body';
import { assignmentOption as optionOf, optionKey as keyOf } from './assignment-options';
import { listAll } from './browse';
import type { Noun } from './nouns';

const COLUMNS = ['uuid', 'kind', 'customer_uuid', 'object_name', 'object_uuid', 'offering_uuid'];

export type AssignmentFlags = { customer: string } & Record<string, unknown>;

/**
 * The kind and body of `vmware assignment add|remove --customer C --<object> X`: exactly one object
 * option, the body checked against the assignment's contract before anything is sent.
 */
export function assignmentRequest(flags: AssignmentFlags): {
  kind: AssignmentKind;
  body: Record<string, string>;
} {
  const given = ASSIGNMENT_KINDS.filter((kind) => flags[keyOf(optionOf(kind))] !== undefined);
  const options = ASSIGNMENT_KINDS.map(optionOf).join(', ');
  if (given.length !== 1)
    throw CliError.usage(
      given.length === 0
        ? `name what to assign with one of ${options}`
        : `${given.map(optionOf).join(' and ')}: name one object at a time`,
    );
  const kind = given[0];
  const field = ASSIGNMENT_FIELDS[kind].field;
  const body = { customer: flags.customer, [field]: flags[keyOf(optionOf(kind))] };
  checkBody(ASSIGNMENT_OPERATIONS[kind].add.body as z.ZodType, body, (name) =>
    name === field ? optionOf(kind) : `--${name}`,
  );
  return { kind, body: body as Record<string, string> };
}

/**
 * `vmware assignment add`: `POST /api/vmware-customer-<kind>/` (201 with the assignment), with an
 * Idempotency-Key of its own: retried under it when unanswered, it answers the first assignment.
 */
export async function addAssignment(context: CommandContext, flags: AssignmentFlags): Promise<void> {
  const { kind, body } = assignmentRequest(flags);
  const path = VMWARE_ASSIGNMENT_PATHS[kind];
  const { body: created } = await context.client.post(path, body, undefined, randomUUID());
  context.print(created, COLUMNS);
}

/** `vmware assignment remove`: `POST /api/vmware-customer-<kind>/remove/` (404 if it was not assigned). */
export async function removeAssignment(context: CommandContext, flags: AssignmentFlags): Promise<void> {
  const { kind, body } = assignmentRequest(flags);
  await context.client.post(`${VMWARE_ASSIGNMENT_PATHS[kind]}remove/`, body);
  context.print({ kind, ...body, removed: true });
}

function assignmentNoun(kind: AssignmentKind): Noun {
  return {
    label: `${kind} assignment`,
    listPath: VMWARE_ASSIGNMENT_PATHS[kind],
    itemPath: '',
    listQuery: assignmentListQuery,
    columns: COLUMNS,
  };
}

/**
 * `vmware assignment list [--kind K] [--filter customer_uuid=…]`: the assignments of one kind, or of
 * every kind one after the other (each item says its `kind`).
 */
export async function listAssignments(
  context: CommandContext,
  flags: { kind?: string; filter: readonly string[] },
): Promise<void> {
  if (flags.kind !== undefined && !(ASSIGNMENT_KINDS as readonly string[]).includes(flags.kind))
    throw CliError.usage(`--kind ${flags.kind}: one of ${ASSIGNMENT_KINDS.join(', ')}`);
  const kinds = flags.kind === undefined ? ASSIGNMENT_KINDS : [flags.kind as AssignmentKind];
  const items: unknown[] = [];
  for (const kind of kinds) items.push(...(await listAll(context, assignmentNoun(kind), flags.filter)));
  context.print(items, COLUMNS);
}
