import { requireCommittedCheck } from '../checks/check-commands.js';
import { AppError, validationFailed } from '../errors.js';
import { replayMissed } from '../events/replay.js';
import { MAX_RESULT_CHECKS, resultSeriesOf } from '../events/result-watch.js';
import { unknownQueryParameters } from '../http/pagination.js';
import { route, type RouteSpec } from '../http/route.js';

/** The organization's live events as server-sent events, for the dashboard and `svc watch`. */
export const eventRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/events',
    permission: 'checks:read',
    summary:
      'Live events as text/event-stream: check.state {slug, state, from, since, message, incidentUid}, incident.opened|acknowledged|resolved {uid, title, checkSlug, status, at}, maintenance.started|ended {uid, title, startsAt, endsAt}; ?checks=a,b keeps those of some checks; ?results=a,b adds check.result {slug, at, status, latencyMs, message} for each run of those checks (at most 500); Last-Event-ID replays what was missed (up to 1 h and 500 events) or sends a reset event; a `: ping` comment every 15 s; 429 past the open streams allowed per member or per daemon.',
    async handler({ ctx, deps, auth, query }) {
      const issues = unknownQueryParameters(query, ['checks', 'results']);
      if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
      const slugs = slugList(query, 'checks');
      const followed = slugList(query, 'results') ?? [];
      if (followed.length > MAX_RESULT_CHECKS)
        throw validationFailed([{ path: 'results', message: `Follow at most ${MAX_RESULT_CHECKS} checks run by run.` }], 'The query is not valid.');
      for (const slug of slugs ?? []) await requireCommittedCheck(deps.db, auth.org.uid, slug);
      const results = await resultSeriesOf(deps.db.kysely, auth.org.uid, followed, deps.clock.now().getTime());
      const stream = await deps.events.open(auth.org.uid, auth.user.uid, slugs ? new Set(slugs) : undefined, results);
      if (stream === 'draining') throw new AppError('UNAVAILABLE', 'This server is shutting down; connect again.');
      if (stream === 'daemon-full')
        throw new AppError('RATE_LIMITED', 'This server has as many event streams open as it allows (SVC_EVENTS_MAX_STREAMS); try again later.');
      if (stream === 'member-full')
        throw new AppError('RATE_LIMITED', 'You have as many event streams open in this organization as one member may; close one first.');
      // Under way until its response ends (the client went away, or draining closed it and its
      // last bytes went out): shutdown waits for that.
      deps.lifecycle.enter();
      ctx.res.once('close', () => {
        stream.close();
        deps.lifecycle.leave();
      });
      ctx.req.socket.setNoDelay(true);
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      ctx.set('X-Accel-Buffering', 'no');
      ctx.body = stream.body;
      const lastEventId = ctx.get('last-event-id');
      if (!lastEventId) {
        stream.live();
        return;
      }
      const missed = await replayMissed(deps.db.kysely, auth.org.uid, lastEventId, deps.clock.now()).catch(() => undefined);
      if (!missed || 'reset' in missed) stream.reset(missed?.reset ?? 'The missed events could not be read; read the current state again.');
      else stream.replay(missed.events);
    },
  }),
];

/** A comma-separated list of check slugs (`?checks=`, `?results=`); undefined when absent, 400 when empty. */
function slugList(query: URLSearchParams, name: string): string[] | undefined {
  if (!query.has(name)) return undefined;
  const slugs = [
    ...new Set(
      query
        .get(name)!
        .split(',')
        .map((slug) => slug.trim())
        .filter(Boolean),
    ),
  ];
  if (slugs.length === 0) throw validationFailed([{ path: name, message: 'Give one or more check slugs separated by commas.' }], 'The query is not valid.');
  return slugs;
}
