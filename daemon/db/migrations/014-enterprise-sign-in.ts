import type { Kysely } from 'kysely';

/**
 * Enterprise sign-in: each organization's directory group → role mapping (shared by SAML and
 * LDAP), its SAML identity provider, the SAML requests awaiting an answer (InResponseTo) and the
 * assertions already used (replay).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('group_roles')
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_roles_pk', ['organization_uid', 'group_name'])
    .execute();
  await db.schema
    .createTable('saml_providers')
    .addColumn('organization_uid', 'text', (c) => c.primaryKey().references('organizations.uid').onDelete('cascade'))
    .addColumn('metadata_xml', 'text', (c) => c.notNull())
    .addColumn('metadata_url', 'text')
    .addColumn('idp_entity_id', 'text', (c) => c.notNull())
    .addColumn('idp_sso_url', 'text', (c) => c.notNull())
    .addColumn('idp_certificates', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('saml_requests')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('saml_used_assertions')
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_used_assertions_pk', ['organization_uid', 'assertion_id'])
    .execute();
}
