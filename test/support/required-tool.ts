import { existsSync } from 'node:fs';

/** Whether the tests run as CI (`.ci/run` exports CI=true): then nothing a suite needs may be missing. */
export const IN_CI = process.env.CI === 'true';

/**
 * Whether a Debian tool a suite needs is installed. Missing, it fails the suite under CI=true
 * (a skipped or weakened suite would pass silently); elsewhere it prints why and returns false,
 * so the suite can skip or fall back.
 */
export function hasTool(path: string, debianPackage: string, purpose: string): boolean {
  if (existsSync(path)) return true;
  const reason = `${path} is missing (Debian package ${debianPackage}), needed for ${purpose}`;
  if (IN_CI) throw new Error(`CI=true requires ${reason}`);
  console.warn(`[svc tests] ${reason}: skipped or weakened here`);
  return false;
}

/**
 * Whether a fixture-regeneration switch (`UPDATE_DOCS=1`, `UPDATE_IMPORT_FIXTURES=1`) is on. It is
 * refused under CI=true: CI compares with the committed files, it never rewrites them.
 */
export function updateSwitch(name: `UPDATE_${string}`): boolean {
  const on = Boolean(process.env[name]) && process.env[name] !== '0';
  if (on && process.env.CI === 'true') throw new Error(`${name} rewrites expected files and is refused under CI=true`);
  return on;
}
