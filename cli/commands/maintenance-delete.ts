import type { CommandDeps } from '../context.js';
import { orgPath, resolveOrg } from './checks-org.js';
import { confirmed } from './confirm.js';

/** `svc maintenance delete UID`: asks first unless --yes. */
export async function remove(options: { org?: string; args: string[] }, deps: CommandDeps): Promise<void> {
  const [uid] = options.args;
  const org = await resolveOrg(options, deps);
  if (!(await confirmed(`Delete maintenance window ${uid} in ${org}?`, deps))) return;
  await deps.client().request('DELETE', `${orgPath(org)}/maintenance-windows/${encodeURIComponent(uid)}`);
  if (deps.out.jsonMode) return deps.out.json({ deleted: uid, org });
  deps.out.success(`deleted maintenance window ${uid}`);
}
