import type { MigrationInterface, QueryRunner } from 'typeorm';

const OBJECT_TABLES = ['clusters', 'networks', 'datastores', 'folders'] as const;

// One table per assignment kind (Waldur's CustomerCluster, CustomerNetwork, CustomerNetworkPair,
// CustomerDatastore, CustomerFolder): the foreign key deletes an assignment with its object.
const ASSIGNMENT_TABLES = [
  ['customer_clusters', 'clusters'],
  ['customer_networks', 'networks'],
  ['customer_network_pairs', 'networks'],
  ['customer_datastores', 'datastores'],
  ['customer_folders', 'folders'],
] as const;

/**
 * The vSphere integration of each offering (credentials with the password sealed by AES-256-GCM,
 * state, synchronisation bookkeeping), the inventory it imports (templates, clusters, networks,
 * datastores, VM folders: one row per vCenter object, unique per offering, with its place in
 * vCenter's listing for the "first one vCenter lists" defaults), and the customer
 * assignments of clusters, networks, datastores and folders.
 */
export class CreateIntegrations1764480000021 implements MigrationInterface {
  name = 'CreateIntegrations1764480000021';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "vsphere"."integrations" (
      "offering_uuid" uuid PRIMARY KEY,
      "backend_url" varchar(500) NOT NULL DEFAULT '',
      "username" varchar(255) NOT NULL DEFAULT '',
      "password_sealed" text,
      "default_cluster_label" varchar(255) NOT NULL DEFAULT '',
      "max_cpu" integer CHECK ("max_cpu" >= 1),
      "max_ram" integer CHECK ("max_ram" >= 1),
      "max_disk" integer CHECK ("max_disk" >= 1),
      "max_disk_total" integer CHECK ("max_disk_total" >= 1),
      "max_cores_per_socket" integer CHECK ("max_cores_per_socket" >= 1),
      "verify_ssl" boolean NOT NULL DEFAULT false,
      "ca_pem" text,
      "state" varchar(16) NOT NULL DEFAULT 'CREATING' CHECK ("state" IN ('CREATING', 'OK', 'ERRED')),
      "error_message" text NOT NULL DEFAULT '',
      "sync_requested_at" timestamptz,
      "sync_running_since" timestamptz,
      "last_sync_started" timestamptz,
      "last_sync_finished" timestamptz,
      "last_sync_success" timestamptz,
      "last_sync_error" text NOT NULL DEFAULT '',
      "counts" jsonb NOT NULL DEFAULT '{"templates":0,"clusters":0,"networks":0,"datastores":0,"folders":0}',
      "skipped" jsonb NOT NULL DEFAULT '[]',
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now()
    )`);
    // The sweep looks for requested or interrupted synchronisations.
    await runner.query(`CREATE INDEX "integrations_sync_due_idx" ON "vsphere"."integrations" ("offering_uuid")
      WHERE "sync_requested_at" IS NOT NULL OR "sync_running_since" IS NOT NULL`);
    await runner.query(`CREATE TABLE "vsphere"."templates" (
      "uuid" uuid PRIMARY KEY,
      "offering_uuid" uuid NOT NULL REFERENCES "vsphere"."integrations" ("offering_uuid") ON DELETE CASCADE,
      "backend_id" varchar(255) NOT NULL,
      "name" varchar(255) NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "guest_os" varchar(64) NOT NULL,
      "cores" integer NOT NULL,
      "cores_per_socket" integer NOT NULL,
      "ram" integer NOT NULL,
      "disk" bigint NOT NULL,
      "nic_count" integer NOT NULL,
      "item_modified" varchar(64),
      "details_read_at" timestamptz,
      "created" timestamptz NOT NULL DEFAULT now(),
      "modified" timestamptz NOT NULL DEFAULT now(),
      UNIQUE ("offering_uuid", "backend_id")
    )`);
    for (const table of OBJECT_TABLES) {
      const extra =
        table === 'networks'
          ? `"type" varchar(32) NOT NULL CHECK ("type" IN ('STANDARD_PORTGROUP', 'DISTRIBUTED_PORTGROUP', 'OPAQUE_NETWORK')),`
          : table === 'datastores'
            ? `"type" varchar(64) NOT NULL DEFAULT '', "capacity" bigint, "free_space" bigint,`
            : '';
      await runner.query(`CREATE TABLE "vsphere"."${table}" (
        "uuid" uuid PRIMARY KEY,
        "offering_uuid" uuid NOT NULL REFERENCES "vsphere"."integrations" ("offering_uuid") ON DELETE CASCADE,
        "backend_id" varchar(255) NOT NULL,
        "name" varchar(255) NOT NULL,
        "position" integer NOT NULL DEFAULT 0,
        ${extra}
        "created" timestamptz NOT NULL DEFAULT now(),
        "modified" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("offering_uuid", "backend_id")
      )`);
    }
    for (const [table, objects] of ASSIGNMENT_TABLES) {
      await runner.query(`CREATE TABLE "vsphere"."${table}" (
        "uuid" uuid PRIMARY KEY,
        "customer_uuid" uuid NOT NULL,
        "object_uuid" uuid NOT NULL REFERENCES "vsphere"."${objects}" ("uuid") ON DELETE CASCADE,
        "created" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("customer_uuid", "object_uuid")
      )`);
      await runner.query(`CREATE INDEX "${table}_object_idx" ON "vsphere"."${table}" ("object_uuid")`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const [table] of ASSIGNMENT_TABLES) await runner.query(`DROP TABLE "vsphere"."${table}"`);
    for (const table of [...OBJECT_TABLES, 'templates', 'integrations'])
      await runner.query(`DROP TABLE "vsphere"."${table}"`);
  }
}
