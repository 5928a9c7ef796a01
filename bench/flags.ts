/**
 * A benchmark's `--name=value` flag (`npm run bench -- <name> --flag=value`, passed on by main.ts):
 * its value, "" for a bare `--name`, undefined when absent.
 */
export function flag(name: string): string | undefined {
  const arg = process.argv.find((candidate) => candidate === `--${name}` || candidate.startsWith(`--${name}=`));
  return arg === undefined ? undefined : arg.slice(name.length + 3);
}
