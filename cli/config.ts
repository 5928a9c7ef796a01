import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the CLI keeps the saved sign-in: `$SVC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc');
}

export interface SavedCredentials {
  url: string;
  token: string;
  email?: string;
}

const credentialsPath = (env: NodeJS.ProcessEnv) => join(configDir(env), 'credentials.json');

export function readCredentials(env: NodeJS.ProcessEnv = process.env): SavedCredentials | undefined {
  const path = credentialsPath(env);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SavedCredentials;
  } catch {
    return undefined;
  }
}

/** Saves the token readable by the user only (mode 0600, folder 0700). */
export function saveCredentials(credentials: SavedCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = credentialsPath(env);
  writeFileSync(path, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

export function forgetCredentials(env: NodeJS.ProcessEnv = process.env): void {
  rmSync(credentialsPath(env), { force: true });
}

export const DEFAULT_URL = 'http://localhost:4000';

/**
 * The daemon URL and token for a command: flags beat `SVC_URL`/`SVC_TOKEN`, which beat the saved
 * sign-in. This file and daemon/config/ are the only places that read the environment.
 */
export function resolveTarget(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): { url: string; token?: string } {
  const saved = readCredentials(env);
  const url = (flags.url || env.SVC_URL || saved?.url || DEFAULT_URL).replace(/\/+$/, '');
  const token = flags.token || env.SVC_TOKEN || (saved && saved.url === url ? saved.token : undefined);
  return { url, token };
}

/** Reads a named environment variable (for `--token-env VAR`). */
export const readEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string | undefined => env[name];
