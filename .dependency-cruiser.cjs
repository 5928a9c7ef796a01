// The architecture's rules, checked by dependency-cruiser on every `npm test`
// (test/architecture/dependency-rules.test.ts). Paths are relative to the project root.
// Each rule says why; docs/architecture.md describes the layout they protect.

/** Core modules that open network connections. */
const NETWORK_CORE = '^(node:)?(http|https|http2|net|tls|dgram|dns)$';
/** Packages that open network connections. */
const NETWORK_PACKAGES = 'node_modules/(undici|pg|nodemailer|ws|node-fetch|axios|got)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-is-the-ground-floor',
      comment: 'The API contract is read by daemon, CLI and dashboard alike, so it depends on none of them.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(daemon|cli|dashboard|importers|probes|checks|bench)/' },
    },
    {
      name: 'checks-are-the-domain-model',
      comment:
        'The check catalog (types, fields, validation, ordering, status codes) is what importers, probes and the daemon share: it depends on none of them and touches no network.',
      severity: 'error',
      from: { path: '^checks/' },
      to: { path: ['^(daemon|cli|dashboard|importers|probes|bench)/', NETWORK_CORE, NETWORK_PACKAGES] },
    },
    {
      name: 'contract-has-no-runtime-dependencies',
      comment: 'The dashboard bundles the contract: no package or Node module in it (only the version reader, which the dashboard never imports).',
      severity: 'error',
      from: { path: '^contract/', pathNot: '^contract/version\\.ts$' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'importers-stay-pure',
      comment: 'Converters are pure functions from an export to checks: nothing of the daemon, the CLI, the dashboard or the probes.',
      severity: 'error',
      from: { path: '^importers/' },
      to: { path: '^(daemon|cli|dashboard|probes|bench)/' },
    },
    {
      name: 'importers-do-not-touch-the-network',
      comment:
        "Only the token API exchange fetches (with the token or API key the caller gave), for the token sources' adapters; every converter works offline.",
      severity: 'error',
      from: { path: '^importers/', pathNot: '^importers/shared/token-api\\.ts$' },
      to: { path: [NETWORK_CORE, NETWORK_PACKAGES] },
    },
    {
      name: 'probes-stand-alone',
      comment:
        "Check executors are the engine's leaves: the daemon and the CLI call them, never the other way round; they read the check model from checks/, never from the importers.",
      severity: 'error',
      from: { path: '^probes/' },
      to: { path: '^(daemon|cli|dashboard|importers)/' },
    },
    {
      name: 'probes-take-values-from-the-module-that-holds-them',
      comment:
        "A probe thread loads its probes' imports: a value from checks/index.ts would load the whole catalog and its zod schemas there (12 MiB a thread). Types from it are fine; values come from the one module of checks/ that holds them.",
      severity: 'error',
      from: { path: '^probes/' },
      to: { path: '^checks/index\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'worker-threads-through-one-helper',
      comment: 'Worker threads are typed modules started through daemon/workers (a deadline, terminate and replace, typed messages), never ad hoc.',
      severity: 'error',
      from: { path: '^(contract|checks|cli|daemon|importers|probes)/', pathNot: '^daemon/workers/' },
      to: { path: '^(node:)?worker_threads$' },
    },
    {
      name: 'cli-uses-no-daemon-internals',
      comment: 'The CLI talks to the daemon over HTTP; it shares only the contract and the importers. `svc daemon` starts the daemon through its entry point.',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^(daemon|dashboard|probes|bench)/', pathNot: '^daemon/main\\.ts$' },
    },
    {
      name: 'dashboard-imports-only-types-from-outside',
      comment: 'The dashboard is a browser bundle: from outside itself it takes types, and values only from the contract.',
      severity: 'error',
      from: { path: '^dashboard/' },
      to: { pathNot: '^(dashboard/|node_modules/|contract/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'dashboard-does-not-bundle-node',
      comment: "The version reader uses Node's module loader, which a browser does not have.",
      severity: 'error',
      from: { path: '^dashboard/' },
      to: { path: '^contract/version\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle of runtime imports makes load order matter and hides which module is the lower one: move the shared piece down. Imports of types only are erased at build time and may go both ways.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'daemon-db-is-the-floor',
      comment:
        'The database layer (connection, schema, migrations, prepared reads) is what every part of the daemon stands on: it imports nothing else of the daemon, types included, but the worker-thread helpers, which import nothing of the daemon either (its checkpoints run on a thread).',
      severity: 'error',
      from: { path: '^daemon/db/' },
      to: { path: '^daemon/', pathNot: '^daemon/(db|workers)/' },
    },
    {
      name: 'daemon-workers-stand-alone',
      comment: 'The worker-thread helpers are a floor beside the database layer, which uses them: they import nothing else of the daemon.',
      severity: 'error',
      from: { path: '^daemon/workers/' },
      to: { path: '^daemon/', pathNot: '^daemon/workers/' },
    },
    {
      name: 'daemon-routes-are-the-top',
      comment:
        "Route tables call the daemon's parts, never the other way round: only other route files and the MCP tools (which expose the same operations) import them, and app.ts, which mounts the table.",
      severity: 'error',
      from: { pathNot: '^daemon/(routes|mcp)/|^daemon/app\\.ts$' },
      to: { path: '^daemon/routes/' },
    },
    {
      name: 'daemon-http-does-not-know-the-routes',
      comment: 'The HTTP machinery (mounting, bodies, validation, errors, the route spec) serves any route table: it does not import one.',
      severity: 'error',
      from: { path: '^daemon/http/' },
      to: { path: '^daemon/routes/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
