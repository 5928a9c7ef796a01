// `npm run parity -- <tool>`: a differential run of the monitors of another tool against svc's
// import of them (docs/import.md, "Differential run against Uptime Kuma"). Not part of `npm test`:
// it starts the tool itself and takes minutes.

/** Each differential run, by the name `npm run parity -- <name>` takes. Loaded lazily. */
const RUNS: Record<string, () => Promise<{ run: () => Promise<Record<string, unknown>> }>> = {
  kuma: () => import('./kuma-run.js'),
};

const [name] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!name || !(name in RUNS)) {
  process.stderr.write(`usage: npm run parity -- <${Object.keys(RUNS).join('|')}> [--kuma-dir=PATH] [--wait=SECONDS] [--only=TEXT] [--json=FILE] [--keep]\n`);
  process.exit(2);
}
const { run } = await RUNS[name]!();
const summary = await run();
process.exit(summary.silent === 0 ? 0 : 1);
