import type { StatusPageUpdate } from '../../contract/status-pages.js';
import type { AppDeps } from '../deps.js';
import { publicPageLinks } from './public/public-links.js';
import { UPDATE_STATE_WORDS } from './public/render-status-page.js';
import { findStatusPage } from './status-page-store.js';
import { type SubscriberMessage, mailSubscribers } from './subscribers/subscriber-outbox.js';
import { changeUpdate, insertUpdate, type UpdateFields } from './update-store.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** Which page: the organization (uid and slug, for the link) and the page's slug. */
export interface PageRef {
  orgUid: string;
  orgSlug: string;
  pageSlug: string;
}

/** The mail about an update: its state and title, its body as written, the checks it names and the page's link. */
async function updateMessage(db: Executor, page: { uid: string; title: string }, link: string, update: StatusPageUpdate): Promise<SubscriberMessage> {
  const names = update.checks.length
    ? await db
        .selectFrom('status_page_checks as l')
        .innerJoin('checks as c', 'c.uid', 'l.check_uid')
        .select(['c.slug', 'c.name'])
        .where('l.status_page_uid', '=', page.uid)
        .where('c.slug', 'in', update.checks)
        .execute()
    : [];
  const affects = names.length ? `\n\nAffects: ${update.checks.map((slug) => names.find((row) => row.slug === slug)?.name ?? slug).join(', ')}` : '';
  return {
    subject: `[${page.title}] ${UPDATE_STATE_WORDS[update.state]}: ${update.title}`,
    text: `${UPDATE_STATE_WORDS[update.state]}: ${update.title}\n\n${update.body}${affects}\n\nThe status page: ${link}`,
  };
}

/**
 * Posts an update on a page and, when the page is public, queues its mail to the confirmed
 * subscribers in the same transaction. Undefined when there is no such page.
 */
export async function postUpdate(deps: Deps, ref: PageRef, fields: UpdateFields): Promise<StatusPageUpdate | undefined> {
  const now = deps.clock.now();
  return inTransaction(deps.db.kysely, async (trx) => {
    const page = await findStatusPage(trx, ref.orgUid, ref.pageSlug);
    if (!page) return undefined;
    const update = await insertUpdate(trx, page.uid, fields, now);
    if (page.public) await mailSubscribers(trx, page.uid, await updateMessage(trx, page, pageLink(deps, ref), update), now);
    return update;
  });
}

/**
 * Changes an update; when its state changes (resolved, say) on a public page, the subscribers
 * are mailed the update as it now reads. Undefined when there is no such page or update.
 */
export async function reviseUpdate(deps: Deps, ref: PageRef, uid: string, changes: Partial<UpdateFields>): Promise<StatusPageUpdate | undefined> {
  const now = deps.clock.now();
  return inTransaction(deps.db.kysely, async (trx) => {
    const page = await findStatusPage(trx, ref.orgUid, ref.pageSlug);
    if (!page) return undefined;
    const changed = await changeUpdate(trx, page.uid, uid, changes, now);
    if (!changed) return undefined;
    if (page.public && changed.after.state !== changed.before.state)
      await mailSubscribers(trx, page.uid, await updateMessage(trx, page, pageLink(deps, ref), changed.after), now);
    return changed.after;
  });
}

const pageLink = (deps: Deps, ref: PageRef) => publicPageLinks(deps.config.baseUrl, ref.orgSlug, ref.pageSlug).page;
