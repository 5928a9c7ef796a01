import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { usageError } from './errors.js';

/** Where the CLI keeps the saved sign-in: `$SVC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc');
}

export interface SavedCredentials {
  url: string;
  token: string;
  email?: string;
}

/** The saved sign-ins, one per profile (a named daemon and account). */
interface CredentialsFile {
  profiles: Record<string, SavedCredentials>;
}

/** The profile used when none is named. */
export const DEFAULT_PROFILE = 'default';

const credentialsPath = (env: NodeJS.ProcessEnv) => join(configDir(env), 'credentials.json');

/** Reads every saved profile; the older one-sign-in file reads as the default profile. */
export function readProfiles(env: NodeJS.ProcessEnv = process.env): Record<string, SavedCredentials> {
  const path = credentialsPath(env);
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CredentialsFile> & Partial<SavedCredentials>;
    if (parsed.profiles && typeof parsed.profiles === 'object') return parsed.profiles;
    if (typeof parsed.url === 'string' && typeof parsed.token === 'string') return { [DEFAULT_PROFILE]: parsed as SavedCredentials };
    return {};
  } catch {
    return {};
  }
}

/** Writes the profiles readable by the user only (mode 0600, folder 0700). */
function writeProfiles(profiles: Record<string, SavedCredentials>, env: NodeJS.ProcessEnv): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = credentialsPath(env);
  const file: CredentialsFile = { profiles };
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** A profile name as given by --profile or SVC_PROFILE; names are kept simple so they read well in a shell. */
export function checkProfileName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) throw usageError(`--profile takes a name of letters, digits, ".", "_" and "-"; got "${name}"`);
  return name;
}

/** The profile named by `--profile`, else `SVC_PROFILE`, else none. */
export const namedProfile = (flags: { profile?: string }, env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const name = flags.profile || env.SVC_PROFILE;
  return name ? checkProfileName(name) : undefined;
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether two daemon URLs name the same daemon: equal once the loopback names (localhost,
 * 127.0.0.1, ::1) count as one host and default ports are filled in.
 */
export function sameDaemon(a: string, b: string): boolean {
  const key = (text: string) => {
    try {
      const url = new URL(text);
      const host = LOOPBACK_HOSTS.has(url.hostname) ? 'loopback' : url.hostname;
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      return `${url.protocol}//${host}:${port}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return text.replace(/\/+$/, '');
    }
  };
  return key(a) === key(b);
}

/** The profile a sign-in for `url` belongs in: the named one, else one already saved for that daemon, else the default. */
export function profileFor(url: string, flags: { profile?: string }, env: NodeJS.ProcessEnv = process.env): string {
  const named = namedProfile(flags, env);
  if (named) return named;
  const profiles = readProfiles(env);
  if (profiles[DEFAULT_PROFILE] && sameDaemon(profiles[DEFAULT_PROFILE].url, url)) return DEFAULT_PROFILE;
  return Object.keys(profiles).find((name) => sameDaemon(profiles[name].url, url)) ?? DEFAULT_PROFILE;
}

/** The saved sign-in of one profile (the default one when none is named). */
export function readCredentials(env: NodeJS.ProcessEnv = process.env, profile = DEFAULT_PROFILE): SavedCredentials | undefined {
  return readProfiles(env)[profile];
}

/** Saves the sign-in under `profile`, keeping the others; returns the file's path. */
export function saveCredentials(credentials: SavedCredentials, env: NodeJS.ProcessEnv = process.env, profile = DEFAULT_PROFILE): string {
  return writeProfiles({ ...readProfiles(env), [profile]: credentials }, env);
}

/** Forgets the sign-in of `profile`; the file goes when no profile is left. */
export function forgetCredentials(env: NodeJS.ProcessEnv = process.env, profile = DEFAULT_PROFILE): void {
  const { [profile]: _gone, ...rest } = readProfiles(env);
  if (Object.keys(rest).length === 0) rmSync(credentialsPath(env), { force: true });
  else writeProfiles(rest, env);
}

export const DEFAULT_URL = 'http://localhost:4000';

/** Where a command's daemon URL and token came from, and the profile that holds the saved token. */
export interface Target {
  url: string;
  token?: string;
  /** The profile the sign-in is saved under (named, or the one saved for this daemon). */
  profile: string;
}

/**
 * The daemon URL and token for a command: flags beat `SVC_URL`/`SVC_TOKEN`, which beat the saved
 * sign-in of the profile (`--profile`, `SVC_PROFILE`, else the one saved for the URL, else the
 * default). This file and daemon/config/ are the only places that read the environment.
 */
export function resolveTarget(flags: { url?: string; token?: string; profile?: string }, env: NodeJS.ProcessEnv = process.env): Target {
  const profiles = readProfiles(env);
  const named = namedProfile(flags, env);
  const explicitUrl = flags.url || env.SVC_URL;
  const home = profiles[named ?? DEFAULT_PROFILE];
  const url = (explicitUrl || home?.url || DEFAULT_URL).replace(/\/+$/, '');
  const profile = profileFor(url, flags, env);
  const saved = profiles[profile];
  const token = flags.token || env.SVC_TOKEN || (saved && sameDaemon(saved.url, url) ? saved.token : undefined);
  return { url, token, profile };
}

/** Reads a named environment variable (for `--token-env VAR`). */
export const readEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string | undefined => env[name];
