import { joinOrganization } from '../../access/membership.js';
import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { organizationsMatchingEmail } from '../../orgs/email-pattern.js';
import { requestMembership } from '../../orgs/membership-requests.js';
import { readParameter } from '../../parameters.js';
import { activeWorkspaceLinks } from './workspace-links.js';

/** The organization parameter that turns workspace auto-join off (`{"value": false}`). */
export const AUTO_JOIN_PARAMETER = 'registration.slack_workspace_auto_join';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'logger' | 'caches'>;

/** What happened in one linked organization. */
export interface WorkspaceJoinOutcome {
  organizationUid: string;
  slug: string;
  outcome: 'joined' | 'already-member' | 'email-pattern' | 'requested' | 'already-requested';
  role?: string;
  /** Why auto-join did not apply. */
  reason?: 'member-limit' | 'auto-join-disabled';
}

/**
 * Whether auto-join is on for an organization, read now (every sign-in, no restart). Unset means
 * on; anything but a JSON boolean (`"off"`, `"no"`, a broken document) means off, with a warning
 * naming the organization and the value so an admin can fix it.
 */
export async function autoJoinEnabled(deps: Deps, org: { uid: string; slug: string }): Promise<boolean> {
  const stored = await readParameter(deps, org.uid, AUTO_JOIN_PARAMETER);
  if (!stored.set) return true;
  if (stored.malformed === undefined && typeof stored.value === 'boolean') return stored.value;
  const shown = stored.malformed ?? JSON.stringify(stored.value);
  deps.logger.warn(
    { org: org.slug, parameter: AUTO_JOIN_PARAMETER, value: shown },
    `organization "${org.slug}": ${AUTO_JOIN_PARAMETER} value ${shown} is not a boolean; workspace auto-join is disabled`,
  );
  return false;
}

/**
 * After a team-chat sign-in or app install proved membership of `workspaceId` (the ID the
 * provider returned, nothing from the request): joins every organization linked to it as `user`
 * (the first person of an empty one as `admin`), guests included. Where the member limit is
 * reached or auto-join is off, the membership-request flow applies: a matching
 * `registration.email_pattern` admits, otherwise a request waits for an admin.
 */
export async function joinLinkedWorkspaces(deps: Deps, user: User, workspaceId: string): Promise<WorkspaceJoinOutcome[]> {
  const outcomes: WorkspaceJoinOutcome[] = [];
  for (const link of await activeWorkspaceLinks(deps, workspaceId)) {
    const org = { uid: link.organization_uid, slug: link.slug };
    let reason: WorkspaceJoinOutcome['reason'] = 'auto-join-disabled';
    if (await autoJoinEnabled(deps, org)) {
      const result = await joinOrganization(deps, {
        organizationUid: org.uid,
        userUid: user.uid,
        role: 'user',
        roleIfEmpty: 'admin',
        via: 'team_chat',
        data: { workspaceId },
      });
      if (result.status !== 'member-limit') {
        outcomes.push({ organizationUid: org.uid, slug: org.slug, outcome: result.status === 'joined' ? 'joined' : 'already-member', role: result.role });
        continue;
      }
      reason = 'member-limit';
    }
    outcomes.push({ organizationUid: org.uid, slug: org.slug, reason, ...(await membershipRequestFlow(deps, user, org, workspaceId)) });
  }
  if (outcomes.length > 0)
    deps.logger.info({ user: user.uid, workspaceId, outcomes: outcomes.map((o) => `${o.slug}:${o.outcome}`) }, 'team-chat workspace membership applied');
  return outcomes;
}

async function membershipRequestFlow(
  deps: Deps,
  user: User,
  org: { uid: string; slug: string },
  workspaceId: string,
): Promise<Pick<WorkspaceJoinOutcome, 'outcome' | 'role'>> {
  const matches = await organizationsMatchingEmail(deps, user.email);
  if (matches.some((m) => m.uid === org.uid)) {
    const result = await joinOrganization(deps, { organizationUid: org.uid, userUid: user.uid, role: 'user', via: 'email_pattern', data: { workspaceId } });
    if (result.status === 'joined') return { outcome: 'email-pattern', role: result.role };
    if (result.status === 'already-member') return { outcome: 'already-member', role: result.role };
  }
  const filed = await requestMembership(deps, { organizationUid: org.uid, userUid: user.uid, via: 'team_chat', message: null });
  if (filed === 'already-member') return { outcome: 'already-member' };
  return { outcome: filed === 'pending' ? 'requested' : 'already-requested' };
}
