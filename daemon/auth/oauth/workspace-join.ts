import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

/** Placeholder until the team-chat workspace auto-join lands. */
export async function joinLinkedWorkspaces(_deps: AppDeps, _user: User, _workspaceId: string): Promise<void> {}
