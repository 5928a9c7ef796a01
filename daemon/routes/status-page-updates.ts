import { z } from 'zod';
import { STATUS_PAGE_UPDATE_STATES } from '../../contract/status-pages.js';
import { notFound } from '../errors.js';
import { parsePage, CURSOR_PATTERN } from '../http/pagination.js';
import { route, type RouteSpec } from '../http/route.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter, hasTextControlCharacter, TEXT_CONTROL_CHARACTER_MESSAGE } from '../plain-text.js';
import { deleteUpdate, getUpdate, listUpdates } from '../status-pages/update-store.js';
import { postUpdate, reviseUpdate } from '../status-pages/updates.js';
import { orgOf } from './checks.js';
import { pageNotFound, statusPageOf } from './status-pages.js';

const title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE);
const body = z
  .string()
  .max(10_000)
  .refine((text) => !hasTextControlCharacter(text), TEXT_CONTROL_CHARACTER_MESSAGE);
const state = z.enum(STATUS_PAGE_UPDATE_STATES);
const checks = z
  .array(z.string().min(1).max(63))
  .max(500)
  .refine((list) => new Set(list).size === list.length, 'lists a check twice');

const createBody = z.strictObject({ title, body, state, checks: checks.default([]) });
const patchBody = z
  .strictObject({ title, body, state, checks })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'send at least one field to change');

const updateNotFound = (uid: string) => notFound(`No update "${uid}" on this status page.`);
/** A uid that is not one answers 404 like a missing one. */
const isUid = (uid: string) => CURSOR_PATTERN.test(uid);

/** The updates a status page's members post: investigating, identified, monitoring, resolved, maintenance. */
export const statusPageUpdateRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages/:slug/updates',
    permission: 'status-pages:read',
    response: 'StatusPageUpdatePage',
    summary: "List a status page's updates, newest first: ?limit= (1-200, default 50), ?cursor=.",
    async handler({ deps, auth, params, query }) {
      const page = await statusPageOf(deps, auth, params.slug);
      return listUpdates(deps.db.kysely, page.uid, parsePage(query));
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/status-pages/:slug/updates',
    permission: 'status-pages:write',
    response: 'StatusPageUpdate',
    summary:
      'Post an update {title, body, state: investigating|identified|monitoring|resolved|maintenance, checks?: [check slug on the page]}; a public page mails its confirmed subscribers.',
    body: createBody,
    status: 201,
    async handler({ deps, auth, params, body }) {
      const update = await postUpdate(deps, { orgUid: orgOf(auth).uid, orgSlug: orgOf(auth).slug, pageSlug: params.slug }, body);
      if (!update) throw pageNotFound(params.slug);
      return update;
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages/:slug/updates/:uid',
    permission: 'status-pages:read',
    response: 'StatusPageUpdate',
    summary: 'One update of a status page.',
    async handler({ deps, auth, params }) {
      const page = await statusPageOf(deps, auth, params.slug);
      const update = isUid(params.uid) ? await getUpdate(deps.db.kysely, page.uid, params.uid) : undefined;
      if (!update) throw updateNotFound(params.uid);
      return update;
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/status-pages/:slug/updates/:uid',
    permission: 'status-pages:write',
    response: 'StatusPageUpdate',
    summary: 'Change an update (`checks` replaces the list); a change of state on a public page mails its confirmed subscribers.',
    body: patchBody,
    async handler({ deps, auth, params, body }) {
      const ref = { orgUid: orgOf(auth).uid, orgSlug: orgOf(auth).slug, pageSlug: params.slug };
      await statusPageOf(deps, auth, params.slug);
      const update = isUid(params.uid) ? await reviseUpdate(deps, ref, params.uid, body) : undefined;
      if (!update) throw updateNotFound(params.uid);
      return update;
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/status-pages/:slug/updates/:uid',
    permission: 'status-pages:write',
    summary: 'Delete an update.',
    async handler({ deps, auth, params }) {
      const page = await statusPageOf(deps, auth, params.slug);
      if (!isUid(params.uid) || !(await deleteUpdate(deps.db.kysely, page.uid, params.uid))) throw updateNotFound(params.uid);
    },
  }),
];
