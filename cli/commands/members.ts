import { ROLES, type CreatedInvitation, type List, type Member } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { orgPath, resolveOrg } from './checks-org.js';
import { confirmed } from './confirm.js';

const checkRole = (role: string, flag: string): string => {
  if (!(ROLES as readonly string[]).includes(role)) throw usageError(`${flag} takes ${ROLES.join(', ')}; got "${role}"`);
  return role;
};

async function members(org: string, deps: CommandDeps): Promise<Member[]> {
  return (await deps.client().get<List<Member>>(`${orgPath(org)}/members`)).items;
}

/** The member named by uid or e-mail address (case-insensitive); naming nobody is a usage error. */
async function findMember(who: string, org: string, deps: CommandDeps): Promise<Member> {
  const all = await members(org, deps);
  const member = all.find((m) => m.uid === who || m.email.toLowerCase() === who.toLowerCase());
  if (!member) throw usageError(`${who} is not a member of ${org} (see svc members list)`);
  return member;
}

/** `svc members list`. */
export async function list(_options: unknown, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg({}, deps);
  const items = await members(org, deps);
  if (deps.out.jsonMode) return deps.out.json(items);
  deps.out.table(items, [
    { key: 'email', title: 'E-MAIL' },
    { key: 'name', title: 'NAME' },
    { key: 'role', title: 'ROLE' },
    { key: 'uid', title: 'UID' },
    { key: 'joinedAt', title: 'JOINED' },
  ]);
}

/** `svc members set-role MEMBER ROLE`. */
export async function setRole(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const [who, role] = options.args;
  checkRole(role, 'the role');
  const org = await resolveOrg({}, deps);
  const member = await findMember(who, org, deps);
  await deps.client().request('PATCH', `${orgPath(org)}/members/${encodeURIComponent(member.uid)}`, { body: { role } });
  if (deps.out.jsonMode) return deps.out.json({ ...member, role });
  deps.out.success(`${member.email} is now ${role} in ${org}`);
}

/** `svc members remove MEMBER`: asks first unless --yes. */
export async function remove(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg({}, deps);
  const member = await findMember(options.args[0], org, deps);
  if (!(await confirmed(`Remove ${member.email} from ${org}? Their access tokens for it stop working.`, deps))) return;
  await deps.client().request('DELETE', `${orgPath(org)}/members/${encodeURIComponent(member.uid)}`);
  if (deps.out.jsonMode) return deps.out.json({ removed: member.email, org });
  deps.out.success(`removed ${member.email} from ${org}`);
}

/** `svc members invite EMAIL [--role R]`: the link is printed once (and mailed when the daemon sends mail). */
export async function invite(options: { args: string[]; role: string }, deps: CommandDeps): Promise<void> {
  const [email] = options.args;
  const role = checkRole(options.role, '--role');
  const org = await resolveOrg({}, deps);
  const invitation = await deps.client().post<CreatedInvitation>(`${orgPath(org)}/invitations`, { email, role });
  if (deps.out.jsonMode) return deps.out.json(invitation);
  deps.out.success(
    `invited ${invitation.email} to ${org} as ${invitation.role} (valid until ${invitation.expiresAt}); the link, also mailed when the daemon sends mail:`,
  );
  deps.out.line(invitation.url);
}
