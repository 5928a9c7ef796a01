import { forgetCredentials } from '../config.js';
import type { CommandDeps } from '../context.js';
import { ApiError } from '../client.js';

/** `svc logout`: ends the session server-side and forgets the saved token. */
export async function run(_options: unknown, deps: CommandDeps): Promise<void> {
  const { token, profile } = deps.target();
  if (token) {
    try {
      await deps.client().post('/auth/logout');
    } catch (error) {
      // An already-ended session is signed out all the same.
      if (!(error instanceof ApiError && error.code === 'UNAUTHORIZED')) throw error;
    }
  }
  forgetCredentials(deps.env, profile);
  if (deps.out.jsonMode) deps.out.json({ signedOut: true });
  else deps.out.success('signed out');
}
