import { recordAudit } from '../../audit/audit-log.js';
import type { AppDeps } from '../../deps.js';
import { newId } from '../../db/ids.js';
import { withoutControlCharacters } from '../../plain-text.js';
import { inTransaction } from '../../db/in-transaction.js';

/** Links are per provider; only the team-chat platform has workspaces. */
const PROVIDER = 'team_chat';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** An organization's current link, as the API shows it. */
export interface WorkspaceLinkView {
  workspaceId: string;
  workspaceName: string | null;
  linkedAt: string;
}

/** The organizations linked to a workspace now (removed links never match). */
export async function activeWorkspaceLinks(deps: Pick<AppDeps, 'db'>, workspaceId: string): Promise<{ organization_uid: string; slug: string }[]> {
  return deps.db.kysely
    .selectFrom('workspace_links')
    .innerJoin('organizations', 'organizations.uid', 'workspace_links.organization_uid')
    .select(['workspace_links.organization_uid', 'organizations.slug'])
    .where('workspace_links.provider', '=', PROVIDER)
    .where('workspace_links.workspace_id', '=', workspaceId)
    .where('workspace_links.removed_at', 'is', null)
    .orderBy('organizations.slug')
    .execute();
}

/** The organization's current link, or null. */
export async function workspaceLinkOf(deps: Pick<AppDeps, 'db'>, organizationUid: string): Promise<WorkspaceLinkView | null> {
  const row = await deps.db.kysely
    .selectFrom('workspace_links')
    .selectAll()
    .where('organization_uid', '=', organizationUid)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return row ? { workspaceId: row.workspace_id, workspaceName: row.workspace_name, linkedAt: row.created_at } : null;
}

/** Links (or re-links) an organization to a workspace; one workspace per organization. */
export async function linkWorkspace(
  deps: Deps,
  input: { organizationUid: string; workspaceId: string; workspaceName: string | null; actorUid: string },
): Promise<void> {
  const now = deps.clock.now().toISOString();
  await inTransaction(deps.db.kysely, async (trx) => {
    await trx
      .insertInto('workspace_links')
      .values({
        organization_uid: input.organizationUid,
        provider: PROVIDER,
        workspace_id: input.workspaceId,
        workspace_name: input.workspaceName,
        linked_by: input.actorUid,
        created_at: now,
        removed_at: null,
      })
      .onConflict((oc) =>
        oc
          .column('organization_uid')
          .doUpdateSet({ workspace_id: input.workspaceId, workspace_name: input.workspaceName, linked_by: input.actorUid, created_at: now, removed_at: null }),
      )
      .execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: 'organization.updated',
      actorUid: input.actorUid,
      data: { teamChatWorkspace: input.workspaceId },
    });
  });
}

/** Removes the link: workspace members no longer join by it. Returns whether there was one. */
export async function unlinkWorkspace(deps: Deps, input: { organizationUid: string; actorUid: string }): Promise<boolean> {
  return inTransaction(deps.db.kysely, async (trx) => {
    const removed = await trx
      .updateTable('workspace_links')
      .set({ removed_at: deps.clock.now().toISOString() })
      .where('organization_uid', '=', input.organizationUid)
      .where('removed_at', 'is', null)
      .returning('workspace_id')
      .executeTakeFirst();
    if (removed) {
      await recordAudit(trx, deps.clock, {
        organizationUid: input.organizationUid,
        kind: 'organization.updated',
        actorUid: input.actorUid,
        data: { teamChatWorkspace: null },
      });
    }
    return Boolean(removed);
  });
}

/**
 * Creates an empty organization for a workspace (its first member, the installer, joins next
 * and becomes admin); the slug comes from the workspace name, made unique with a suffix.
 */
export async function createWorkspaceOrganization(
  deps: Deps,
  input: { workspaceId: string; workspaceName: string | null; actorUid: string },
): Promise<{ uid: string; slug: string }> {
  const name =
    withoutControlCharacters(input.workspaceName ?? '')
      .trim()
      .slice(0, 200) || `Workspace ${input.workspaceId}`;
  const base = slugify(name) || slugify(input.workspaceId);
  const stem = base.length >= 2 ? base : `workspace-${base || 'x'}`.replace(/-+$/, '');
  for (let attempt = 0; attempt < 20; attempt++) {
    const slug = attempt === 0 ? stem : `${stem.slice(0, 40)}-${attempt + 1}`;
    const now = deps.clock.now().toISOString();
    const uid = newId();
    const created = await inTransaction(deps.db.kysely, async (trx) => {
      const inserted = await trx
        .insertInto('organizations')
        .values({ uid, slug, name, member_limit: null, created_at: now })
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning('uid')
        .executeTakeFirst();
      if (!inserted) return false;
      await trx
        .insertInto('workspace_links')
        .values({
          organization_uid: uid,
          provider: PROVIDER,
          workspace_id: input.workspaceId,
          workspace_name: input.workspaceName,
          linked_by: input.actorUid,
          created_at: now,
          removed_at: null,
        })
        .execute();
      await recordAudit(trx, deps.clock, {
        organizationUid: uid,
        kind: 'organization.created',
        actorUid: input.actorUid,
        data: { slug, name, teamChatWorkspace: input.workspaceId },
      });
      return true;
    });
    if (created) return { uid, slug };
  }
  throw new Error('no free organization slug for the workspace');
}

/** Lower-case letters, digits and inner hyphens, as organization slugs are. */
const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
