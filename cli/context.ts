import { ApiClient } from './client.js';
import { resolveTarget, type Target } from './config.js';
import { CliError } from './errors.js';
import { createOutput, type Output } from './output.js';
import { createPrompts, type Prompts } from './prompts.js';

/** The global flags every command accepts. */
export interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
  yes?: boolean;
  /** The organization of org-scoped commands (default: SVC_ORG, else your only one). */
  org?: string;
  /** The saved sign-in to use (default: SVC_PROFILE, else the one saved for the URL, else "default"). */
  profile?: string;
}

/** What a command's `run(options, deps)` gets besides its own options. */
export interface CommandDeps {
  globals: GlobalOptions;
  out: Output;
  prompts: Prompts;
  env: NodeJS.ProcessEnv;
  /** The daemon URL, token and profile (flags > SVC_URL/SVC_TOKEN > saved sign-in of the profile). */
  target(): Target;
  /** An API client; with `requireToken` it fails first when nobody is signed in. */
  client(options?: { requireToken?: boolean }): ApiClient;
}

export function createCommandDeps(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): CommandDeps {
  const json = Boolean(globals.json);
  const target = () => resolveTarget(globals, env);
  return {
    globals,
    out: createOutput({ json, env }),
    prompts: createPrompts({ yes: Boolean(globals.yes), json }),
    env,
    target,
    client(options = { requireToken: true }) {
      const { url, token } = target();
      if (options.requireToken && !token) throw new CliError(`not signed in to ${url}: run svc login (or pass --token / set SVC_TOKEN)`);
      return new ApiClient(url, token);
    },
  };
}
