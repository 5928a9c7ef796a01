import { z } from 'zod';
import { getCheck } from '../checks/check-store.js';
import { notFound } from '../errors.js';
import { readCheckChannels, writeCheckChannels } from '../notify/check-channels.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';

const checkNotFound = (slug: string) => notFound(`No check "${slug}" in this organization.`);

/** Which notification channels a check's incidents go to. */
export const checkChannelRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/checks/:slug/channels',
    permission: 'checks:read',
    response: 'CheckChannels',
    summary: "The channels the check chose {channels: [uid]}; empty means the organization's default channels apply.",
    async handler({ deps, auth, params }) {
      const check = await getCheck(deps.db.kysely, orgOf(auth).uid, params.slug);
      if (!check) throw checkNotFound(params.slug);
      return { channels: await readCheckChannels(deps.db.kysely, check.uid) };
    },
  }),
  route({
    method: 'PUT',
    path: '/orgs/:org/checks/:slug/channels',
    permission: 'checks:write',
    response: 'CheckChannels',
    summary: "Choose the check's channels {channels: [uid]} (replaces the choice; [] falls back to the default channels).",
    body: z.strictObject({ channels: z.array(z.string().min(1).max(64)).max(50) }),
    async handler({ deps, auth, params, body }) {
      const org = orgOf(auth);
      const check = await getCheck(deps.db.kysely, org.uid, params.slug);
      if (!check) throw checkNotFound(params.slug);
      return { channels: await writeCheckChannels(deps.db.kysely, org.uid, check.uid, body.channels) };
    },
  }),
];
