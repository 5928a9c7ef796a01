import { createRequire } from 'node:module';

/** The package version, read once from package.json (one level up from source, two from dist). */
function readVersion(): string {
  const require = createRequire(import.meta.url);
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string };
      if (pkg.name === 'svc' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = readVersion();
