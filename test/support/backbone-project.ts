import { runSql } from './rest-client';

/** The project the caller-less backbone path's orders name (tests and the fault suite). */
export const BACKBONE_PROJECT = '6b0a9bd5-5c39-4a53-9d53-5c2a3f0b8e11';

/**
 * Stores the backbone's project and its customer in a migrated database: orders reference their
 * project (a foreign key), and the backbone path has no caller to create one through the API.
 */
export async function createBackboneProject(databaseUrl: string, uuid = BACKBONE_PROJECT): Promise<string> {
  await runSql(
    databaseUrl,
    `WITH c AS (INSERT INTO marketplace.customers (uuid, name) VALUES (gen_random_uuid(), 'Backbone') RETURNING uuid)
     INSERT INTO marketplace.projects (uuid, customer_uuid, name) SELECT $1, c.uuid, 'Backbone' FROM c
     ON CONFLICT (uuid) DO NOTHING`,
    [uuid],
  );
  return uuid;
}
