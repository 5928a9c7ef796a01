import { Argument, Command, CommanderError } from 'commander';
import { createCommandDeps, type CommandDeps, type GlobalOptions } from './context.js';
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './errors.js';
import { VERSION } from '../contract/version.js';
import { CHANNEL_TYPES } from '../contract/notification-channels.js';

type Loader = () => Promise<{ run(options: any, deps: CommandDeps): Promise<number | void> }>;

/** Wires a command to its lazily loaded module, so `svc --help` loads none of them. */
function action(load: Loader) {
  return async function (this: Command) {
    const options = this.opts();
    const globals = this.optsWithGlobals() as GlobalOptions;
    const mod = await load();
    const code = await mod.run({ ...options, args: this.args }, createCommandDeps(globals));
    if (typeof code === 'number') process.exitCode = code;
  };
}

const example = (text: string) => `\nExample:\n  ${text.split('\n').join('\n  ')}\n`;

/** Reuses a group another command already declared, so each group exists once. */
const group = (parent: Command, name: string, description: string) =>
  parent.commands.find((c) => c.name() === name) ?? parent.command(name).description(description);

/** Option parser for a repeatable option: collects every value given. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Every command of the CLI, declared in one place. */
export function buildProgram(): Command {
  const program = new Command('svc')
    .description('svc: checks, incidents, status pages, access control and monitor import for your monitoring service.')
    .version(VERSION, '-V, --version')
    .option('--url <url>', 'daemon URL (default: SVC_URL, the saved sign-in, or http://localhost:4000)')
    .option('--token <token>', 'access token (default: SVC_TOKEN or the saved sign-in)')
    .option('--json', 'print machine-readable JSON only; never prompt')
    .option('-y, --yes', 'answer yes to confirmations; never prompt')
    .option('--org <slug>', 'organization of org-scoped commands (default: SVC_ORG, or your only one)')
    .option('--profile <name>', 'saved sign-in to use (default: SVC_PROFILE, the one saved for --url, or "default")')
    .showHelpAfterError('(run with --help for usage)')
    // Every subcommand's help lists these global flags too.
    .configureHelp({ showGlobalOptions: true })
    // `svc help [command...]` is declared below, so that it also knows the exit-codes topic.
    .helpCommand(false)
    // Set before the subcommands are added: they inherit these settings when created.
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .addHelpText('after', example('svc login --url http://localhost:4000\nsvc whoami'));

  program
    .command('daemon')
    .description('start the API daemon and dashboard (configured by SVC_* variables and svc.yaml; see docs/configuration.md)')
    .addHelpText('after', example('SVC_DB_URL=postgres://localhost/svc SVC_AUTH_JWT_SECRET=... svc daemon'))
    .action(action(() => import('./commands/daemon.js')));

  program
    .command('login')
    .description('sign in to a daemon and save the session token (mode 0600) in the config directory')
    .option('--email <email>', 'e-mail address')
    .option('--password-stdin', 'read the password from standard input')
    .option('--code <code>', 'two-factor code (or recovery code) when the account asks for one')
    .option('--new-password-stdin', 'when the built-in password must be changed, read the new one from the second line of standard input')
    .addHelpText(
      'after',
      example('svc login --url http://localhost:4000 --email me@example.com\nprintf "%s" "$PW" | svc login --email me@example.com --password-stdin'),
    )
    .action(action(() => import('./commands/login.js')));

  program
    .command('logout')
    .description('end the session on the daemon and forget the saved token')
    .addHelpText('after', example('svc logout'))
    .action(action(() => import('./commands/logout.js')));

  program
    .command('whoami')
    .description('show the signed-in account and its organizations')
    .addHelpText('after', example('svc whoami --json'))
    .action(action(() => import('./commands/whoami.js')));

  const admin = program.command('admin').description('super-admin commands');
  const hashing = admin.command('hashing').description('password hashing overrides (stored; effective after a daemon restart)');
  hashing
    .command('show')
    .description('show the policy in force, the stored overrides and the presets')
    .addHelpText('after', example('svc admin hashing show'))
    .action(action(() => import('./commands/admin-hashing.js').then((m) => ({ run: m.show }))));
  hashing
    .command('set')
    .description('set overrides, e.g. argon2.memory=19456 (an empty value, key=, goes back to inheriting)')
    .argument(
      '<assignments...>',
      'KEY=VALUE pairs: algorithm, argon2.memory, argon2.time, argon2.threads, argon2.keyLength, argon2.saltLength, bcrypt.cost, rehashOnLogin',
    )
    .addHelpText('after', example('svc admin hashing set argon2.memory=19456 argon2.time=2 argon2.threads=1'))
    .action(action(() => import('./commands/admin-hashing.js').then((m) => ({ run: m.set }))));
  hashing
    .command('preset')
    .description('store one of the presets as the overrides')
    .addArgument(new Argument('<name>', 'preset name').choices(['default', 'lighter', 'min', 'bcrypt']))
    .addHelpText('after', example('svc admin hashing preset lighter'))
    .action(action(() => import('./commands/admin-hashing.js').then((m) => ({ run: m.preset }))));

  group(admin, 'secrets', 'the stored secrets (super admin)')
    .command('rotate')
    .description(
      're-encrypt every stored secret with the current SVC_SECRET_KEY (the daemon reads old values with SVC_SECRET_KEY_PREVIOUS; see docs/operations.md)',
    )
    .addHelpText('after', example('svc admin secrets rotate'))
    .action(action(() => import('./commands/secrets.js').then((m) => ({ run: m.rotate }))));

  group(admin, 'user', 'manage any account (super admin)')
    .command('reset-password')
    .description('issue a password reset link for an account: mailed by the daemon, or printed when it sends no mail')
    .requiredOption('--user <uid|email>', 'the account, by uid or e-mail address')
    .addHelpText('after', example('svc admin user reset-password --user ann@example.com'))
    .action(action(() => import('./commands/admin-reset-password.js')));
  const sessions = group(program, 'account', 'your own account')
    .command('sessions')
    .description('list your live sessions (the current one is marked)')
    .addHelpText('after', example('svc account sessions\nsvc account sessions --json'))
    .action(action(() => import('./commands/account-sessions.js').then((m) => ({ run: m.list }))));
  sessions
    .command('revoke')
    .description('end one session by its ID, or with --all every session but this one')
    .argument('[id]', 'session ID, as listed by svc account sessions')
    .option('--all', 'end every other session of the account')
    .addHelpText('after', example('svc account sessions revoke 01j9x3k2m4n5p6q7r8s9t0v1w2\nsvc account sessions revoke --all'))
    .action(action(() => import('./commands/account-sessions.js').then((m) => ({ run: m.revoke }))));

  const checks = program.command('checks').description("the organization's checks (organization: --org, SVC_ORG, or your only one)");
  checks
    .command('list')
    .description('list checks, filtered by labels (all must match) and type')
    .option('--label <key=value>', 'only checks with this label (repeatable)', collect)
    .option('--type <type>', 'only checks of this type (see svc check-types)')
    .option('--state <state>', 'only checks in this state: pending, up, degraded, down or paused')
    .option('--limit <n>', 'at most this many checks')
    .addHelpText('after', example('svc checks list --label team=payments --label env=prod\nsvc checks list --type http --json'))
    .action(action(() => import('./commands/checks.js').then((m) => ({ run: m.list }))));
  checks
    .command('get')
    .description('show one check in full')
    .argument('<slug>', 'the check slug')
    .addHelpText('after', example('svc checks get api-health --json'))
    .action(action(() => import('./commands/checks.js').then((m) => ({ run: m.get }))));
  checks
    .command('delete')
    .description('delete a check (asks first; --yes to skip the question)')
    .argument('<slug>', 'the check slug')
    .addHelpText('after', example('svc checks delete api-health --yes'))
    .action(action(() => import('./commands/checks.js').then((m) => ({ run: m.remove }))));
  checks
    .command('results')
    .description('recent results of a check, newest first')
    .argument('<slug>', 'the check slug')
    .option('--limit <n>', 'at most this many results (1-1000, default 20)')
    .option('--from <time>', 'only results at or after this ISO-8601 time')
    .option('--to <time>', 'only results at or before this ISO-8601 time')
    .addHelpText('after', example('svc checks results api-health --limit 50\nsvc checks results api-health --json'))
    .action(action(() => import('./commands/check-runs.js').then((m) => ({ run: m.results }))));
  checks
    .command('uptime')
    .description('uptime and latency percentiles of a check over a window')
    .argument('<slug>', 'the check slug')
    .option('--window <window>', '24h, 7d, 30d or 90d (default 24h)')
    .addHelpText('after', example('svc checks uptime api-health --window 30d'))
    .action(action(() => import('./commands/check-runs.js').then((m) => ({ run: m.uptime }))));
  checks
    .command('run')
    .description('run a check now and print the result (exit 1 when it is down)')
    .argument('<slug>', 'the check slug')
    .addHelpText('after', example('svc checks run api-health'))
    .action(action(() => import('./commands/check-runs.js').then((m) => ({ run: m.run }))));

  const secrets = program
    .command('secrets')
    .description("the organization's secrets, which checks refer to as {{secrets.NAME}}; values are write-only (admins)");
  secrets
    .command('set')
    .description('set a secret (created or replaced); the value comes from a hidden prompt, --stdin or --from-env, never from an argument')
    .argument('<name>', 'the secret name, e.g. DB_PASSWORD')
    .option('--stdin', 'read the value from standard input (one trailing line break is dropped)')
    .option('--from-env <var>', 'read the value from this environment variable')
    .addHelpText(
      'after',
      example(
        'svc secrets set ORDERS_DB_PASSWORD\nprintf "%s" "$PW" | svc secrets set ORDERS_DB_PASSWORD --stdin\nsvc secrets set API_TOKEN --from-env API_TOKEN',
      ),
    )
    .action(action(() => import('./commands/secrets.js').then((m) => ({ run: m.set }))));
  secrets
    .command('list')
    .description('list the secrets by name with the checks that use them (never a value)')
    .addHelpText('after', example('svc secrets list --json'))
    .action(action(() => import('./commands/secrets.js').then((m) => ({ run: m.list }))));
  secrets
    .command('delete')
    .description('delete a secret (asks first; --yes to skip the question); checks that use it then fail')
    .argument('<name>', 'the secret name')
    .addHelpText('after', example('svc secrets delete OLD_TOKEN --yes'))
    .action(action(() => import('./commands/secrets.js').then((m) => ({ run: m.remove }))));

  const channels = program.command('channels').description("the organization's notification channels (organization: --org, SVC_ORG, or your only one)");
  channels
    .command('list')
    .description('list notification channels, secrets masked')
    .option('--org <slug>', 'organization')
    .addHelpText('after', example('svc channels list --json'))
    .action(action(() => import('./commands/channels.js').then((m) => ({ run: m.list }))));
  channels
    .command('create')
    .description('create a notification channel (its settings: svc channels types TYPE)')
    .requiredOption('--name <name>', 'the channel name')
    .requiredOption('--type <type>', `${CHANNEL_TYPES.join(', ')} (svc channels types shows each one's settings)`)
    .option('--config <json>', "the type's settings as a JSON object")
    .option('--config-file <path>', 'the settings from a JSON file (keeps secrets out of the process list)')
    .option('--default', 'apply to every check that chooses no channel')
    .option('--org <slug>', 'organization')
    .addHelpText(
      'after',
      example('svc channels create --name ops --type webhook --config \'{"url":"https://hooks.example.com/svc","signingSecret":"..."}\' --default'),
    )
    .action(action(() => import('./commands/channels.js').then((m) => ({ run: m.create }))));
  channels
    .command('types')
    .description('the channel types, or one type with its settings, which of them are secrets, and a sample')
    .argument('[type]', 'a channel type')
    .addHelpText('after', example('svc channels types slack'))
    .action(action(() => import('./commands/channel-types.js')));
  channels
    .command('test')
    .description('send a test message to a channel and show whether it arrived')
    .argument('<uid>', 'the channel uid (svc channels list)')
    .option('--org <slug>', 'organization')
    .addHelpText('after', example('svc channels test 01j9x3k2m4n5p6q7r8s9t0v1w2'))
    .action(action(() => import('./commands/channels.js').then((m) => ({ run: m.test }))));
  channels
    .command('deliveries')
    .description("a channel's delivery log, newest first: status, attempts, response code, error")
    .argument('<uid>', 'the channel uid (svc channels list)')
    .option('--limit <n>', 'at most this many (1-200, default 50)')
    .option('--org <slug>', 'organization')
    .addHelpText('after', example('svc channels deliveries 01j9x3k2m4n5p6q7r8s9t0v1w2 --json'))
    .action(action(() => import('./commands/channels.js').then((m) => ({ run: m.deliveries }))));

  program
    .command('import')
    .description('import monitors from another tool as checks: a preview, then the import after a confirmation (--yes and --json are global flags)')
    .requiredOption(
      '--source <source>',
      'configfile-monitor, cron-monitor-api, hosted-check-api, hosted-monitor-api, probe-exporter-config, selfhosted-monitor-db or uptime-api-monitor ' +
        '(or the tool: gatus, healthchecks, pingdom, betterstack, blackbox-exporter, uptime-kuma, uptimerobot)',
    )
    .option(
      '--file <path>',
      "the export to import (YAML, JSON, or the self-hosted monitor's database file); blackbox-exporter takes it more than once (prometheus.yml, blackbox.yml, target files)",
      collect,
    )
    .option('--stdin', 'read the export (or the API token) from standard input')
    .option(
      '--token-env <var>',
      'hosted-monitor-api (betterstack), cron-monitor-api (healthchecks) and hosted-check-api (pingdom): the environment variable that holds the API token or key ' +
        '(or give the listings saved as JSON with --file); with --local the CLI reads the API at SVC_IMPORT_HOSTED_MONITOR_API_URL, ' +
        'SVC_IMPORT_CRON_MONITOR_API_URL or SVC_IMPORT_HOSTED_CHECK_API_URL',
    )
    .option('--org <slug>', "organization (default: SVC_ORG, your only one, the token's, or default)")
    .option('--dry-run', 'preview only: write nothing')
    .option('--local', 'convert here without a daemon (preview only)')
    .option('--strict', 'exit with code 3 when any item was skipped or a setting was left out')
    .option('--take-over', 'also change checks of the same slug that another import source manages or that were made by hand')
    .option(
      '--overwrite',
      "on a re-run, take the source's value of a field that was changed both here and in the source since the last import (kept by default)",
    )
    .addHelpText(
      'after',
      example(
        'svc import --source gatus --file config.yaml --dry-run\nsvc import --source uptime-kuma --file kuma.db --yes\n' +
          'svc import --source betterstack --token-env BETTERSTACK_TOKEN --yes --strict\nsvc import --source uptimerobot --file monitors.json --local\n' +
          'svc import --source healthchecks --token-env HEALTHCHECKS_API_KEY --dry-run\n' +
          'svc import --source blackbox-exporter --file prometheus.yml --file blackbox.yml --dry-run\nsvc import --source pingdom --file checks.json --yes',
      ),
    )
    .action(action(() => import('./commands/import.js')));

  program
    .command('check-types')
    .description('list the check types, or show one with its target and a sample check')
    .argument('[type]', 'a check type, e.g. http')
    .addHelpText('after', example('svc check-types\nsvc check-types http --json'))
    .action(action(() => import('./commands/check-types.js')));

  program
    .command('mcp')
    .description('the MCP endpoint through which an AI agent lists check types, validates and creates checks (see docs/mcp.md)')
    .command('config')
    .description(
      'print the JSON an MCP client needs to connect (the endpoint URL and the Authorization header), minting a personal access token for the client when signed in with a session',
    )
    .option('--token <token>', 'the token to put in the header (default: SVC_TOKEN or the saved sign-in); best a personal access token scoped mcp or mcp:read')
    .option('--name <name>', 'the server name under mcpServers', 'svc')
    .option('--client <client>', 'the MCP client this is for: names the personal access token minted for it (default mcp-<name>)')
    .option('--read-only', 'mint the token with the scope mcp:read instead of mcp')
    .option('--org <slug>', 'the organization the minted token works in (default: SVC_ORG or your only one)')
    .addHelpText('after', example('svc mcp config --client claude-desktop --org acme > .mcp.json\nsvc mcp config --client ci-agent --read-only --org acme'))
    .action(action(() => import('./commands/mcp-config.js')));

  // Access tokens and e-mail changes.
  const token = program.command('token').description('your personal access tokens: each bound to one organization, acting with your current role there');
  token
    .command('create')
    .description('mint a token; its secret is printed once')
    .option('--name <name>', 'what the token is for')
    .option('--scope <scope>', 'api, api:read, mcp or mcp:read (repeatable or comma-separated; default api and mcp)', collect)
    .option('--expires <when>', 'a duration (30d, 12h, 90m, 2w), a date (2026-12-31), or never (the default)')
    .addHelpText(
      'after',
      example('svc token create --name ci --scope api:read --expires 30d\nsvc token create --name agent --org acme --scope mcp:read --json'),
    )
    .action(action(() => import('./commands/token.js').then((m) => ({ run: m.create }))));
  token
    .command('list')
    .description('list your tokens (never their secrets)')
    .addHelpText('after', example('svc token list --json'))
    .action(action(() => import('./commands/token.js').then((m) => ({ run: m.list }))));
  token
    .command('revoke')
    .description('revoke a token; it stops working at once')
    .argument('<uid>', 'the token UID, as listed by svc token list')
    .addHelpText('after', example('svc token revoke 01jb2c3d4e5f6g7h8j9k0m1n2p'))
    .action(action(() => import('./commands/token.js').then((m) => ({ run: m.revoke }))));
  group(program, 'account', 'your own account')
    .command('set-email')
    .description('change your sign-in e-mail address (asks for the current password); your other sessions are signed out')
    .argument('<email>', 'the new address')
    .option('--password-stdin', 'read the current password from standard input')
    .addHelpText('after', example('svc account set-email new@example.com\nprintf "%s" "$PW" | svc account set-email new@example.com --password-stdin'))
    .action(action(() => import('./commands/set-email.js').then((m) => ({ run: m.self }))));
  group(group(program, 'admin', 'super-admin commands'), 'user', 'manage any account (super admin)')
    .command('set-email')
    .description("change any account's e-mail address, without its password; all of its sessions are signed out")
    .option('--user <uid|email>', 'the account, by uid or current e-mail address')
    .option('--email <email>', 'the new address')
    .addHelpText('after', example('svc admin user set-email --user old@example.com --email new@example.com'))
    .action(action(() => import('./commands/set-email.js').then((m) => ({ run: m.admin }))));

  const twoFactor = group(group(program, 'account', 'your own account'), '2fa', 'two-factor sign-in (TOTP) of your account');
  twoFactor
    .command('enable')
    .description('turn on two-factor sign-in: shows a QR code for your authenticator app, asks for its code, prints recovery codes once')
    .option('--code <code>', 'confirm a pending enrolment with the code the app shows (without a terminal: run once without it, then with it)')
    .addHelpText('after', example('svc account 2fa enable\nsvc account 2fa enable --code 123456'))
    .action(action(() => import('./commands/account-2fa.js').then((m) => ({ run: m.enable }))));
  twoFactor
    .command('disable')
    .description('turn off two-factor sign-in, confirmed by a current code, a recovery code or your password')
    .option('--code <code>', 'a code from the app, or a recovery code')
    .option('--password-stdin', 'confirm with the current password, read from standard input')
    .addHelpText('after', example('svc account 2fa disable --code 123456\nprintf "%s" "$PW" | svc account 2fa disable --password-stdin'))
    .action(action(() => import('./commands/account-2fa.js').then((m) => ({ run: m.disable }))));

  declareOperatorCommands(program);
  return program;
}

/**
 * Checks as code, incidents, status pages, organizations and members, shell completion, and
 * `svc help`: the commands an operator or a CI job scripts.
 */
function declareOperatorCommands(program: Command): void {
  const checks = group(program, 'checks', "the organization's checks (organization: --org, SVC_ORG, or your only one)");
  checks
    .command('apply')
    .description(
      `create, update and (with --prune) delete checks so the organization matches a YAML file; the checks it writes carry the label ${'svc-managed=apply'}`,
    )
    .requiredOption('-f, --file <path>', 'the checks file (YAML or JSON; - for standard input), as svc checks export writes it')
    .option('--prune', 'also delete the checks this command manages that the file no longer lists')
    .option('--dry-run', 'print the changes only: write nothing')
    .addHelpText('after', example('svc checks apply -f checks.yaml --dry-run\nsvc checks apply -f checks.yaml --prune'))
    .action(action(() => import('./commands/checks-apply.js')));
  checks
    .command('export')
    .description('write checks in the format svc checks apply reads (YAML; --json for JSON)')
    .option('--label <key=value>', 'only checks with this label (repeatable)', collect)
    .option('-o, --output <path>', 'write to this file instead of standard output')
    .addHelpText('after', example('svc checks export > checks.yaml\nsvc checks export --label team=payments -o payments.yaml'))
    .action(action(() => import('./commands/checks-export.js')));

  const incidents = program.command('incidents').description("the organization's incidents (organization: --org, SVC_ORG, or your only one)");
  incidents
    .command('list')
    .description('list incidents, newest first (open and acknowledged ones by default)')
    .option('--status <status>', 'open, acknowledged, resolved, or all', 'active')
    .option('--check <slug>', 'only incidents of this check')
    .addHelpText('after', example('svc incidents list\nsvc incidents list --status all --json'))
    .action(action(() => import('./commands/incidents.js').then((m) => ({ run: m.list }))));
  incidents
    .command('ack')
    .description('acknowledge an open incident: someone is on it')
    .argument('<uid>', 'the incident UID, as listed by svc incidents list')
    .addHelpText('after', example('svc incidents ack 01jb2c3d4e5f6g7h8j9k0m1n2p'))
    .action(action(() => import('./commands/incidents.js').then((m) => ({ run: m.acknowledge }))));
  incidents
    .command('resolve')
    .description('resolve an incident by hand')
    .argument('<uid>', 'the incident UID, as listed by svc incidents list')
    .addHelpText('after', example('svc incidents resolve 01jb2c3d4e5f6g7h8j9k0m1n2p'))
    .action(action(() => import('./commands/incidents.js').then((m) => ({ run: m.resolve }))));

  program
    .command('watch')
    .description(
      "follow the organization's check state changes and incidents live, one line each, until Ctrl-C; reconnects by itself (--json: one object per line)",
    )
    .option('--checks <slugs>', 'only the events of these checks, separated by commas')
    .addHelpText('after', example('svc watch\nsvc watch --org acme --checks api-health,checkout --json'))
    .action(action(() => import('./commands/watch.js')));

  const pages = program.command('status-pages').description("the organization's public status pages (organization: --org, SVC_ORG, or your only one)");
  pages
    .command('list')
    .description('list status pages')
    .addHelpText('after', example('svc status-pages list --json'))
    .action(action(() => import('./commands/status-pages.js').then((m) => ({ run: m.list }))));
  pages
    .command('get')
    .description('show one status page and the checks it lists')
    .argument('<slug>', 'the status page slug')
    .addHelpText('after', example('svc status-pages get public'))
    .action(action(() => import('./commands/status-pages.js').then((m) => ({ run: m.get }))));
  pages
    .command('create')
    .description('create a status page listing some checks')
    .requiredOption('--title <title>', 'the page title')
    .option('--slug <slug>', 'the page slug (default: derived from the title)')
    .option('--check <slug>', 'a check to list (repeatable, in order)', collect)
    .option('--description <text>', 'a line under the title')
    .option('--public', 'anyone with the link sees the page (default: members only)')
    .addHelpText('after', example('svc status-pages create --title "Acme status" --check api-health --check checkout'))
    .action(action(() => import('./commands/status-pages.js').then((m) => ({ run: m.create }))));
  pages
    .command('delete')
    .description('delete a status page (asks first; --yes to skip the question)')
    .argument('<slug>', 'the status page slug')
    .addHelpText('after', example('svc status-pages delete public --yes'))
    .action(action(() => import('./commands/status-pages.js').then((m) => ({ run: m.remove }))));

  const maintenance = program
    .command('maintenance')
    .description(
      "the organization's maintenance windows: covered checks run, show maintenance, open no incident and notify nobody (organization: --org, SVC_ORG, or your only one)",
    );
  maintenance
    .command('list')
    .description('list maintenance windows with their next occurrence')
    .option('--check <slug>', 'only the windows covering this check')
    .option('--upcoming', 'only the windows under way or still to come')
    .addHelpText('after', example('svc maintenance list --upcoming\nsvc maintenance list --check checkout --json'))
    .action(action(() => import('./commands/maintenance-list.js').then((m) => ({ run: m.list }))));
  maintenance
    .command('create')
    .description('create a maintenance window, once or repeated by an RFC 5545 RRULE in a time zone')
    .requiredOption('--title <title>', 'what the maintenance is')
    .requiredOption('--start <time>', 'the (first) start, ISO-8601 with its zone')
    .option('--end <time>', 'the (first) end, ISO-8601 with its zone')
    .option('--duration <length>', 'instead of --end: 90m, 2h, 1h30m, 1d')
    .option('--recurrence <rrule>', 'repeat by an RRULE, e.g. FREQ=WEEKLY;BYDAY=SU')
    .option('--timezone <zone>', 'the IANA time zone the recurrence keeps its wall-clock time in (default UTC)')
    .option('--check <slug>', 'a check it covers (repeatable)', collect)
    .option('--label <key=value>', 'cover every check with this label, now and later (repeatable: all must match)', collect)
    .option('--all-checks', 'cover every check of the organization')
    .option('--description <text>', 'what people should know')
    .addHelpText(
      'after',
      example(
        'svc maintenance create --title "DB upgrade" --start 2026-04-02T22:00:00Z --duration 2h --check checkout\nsvc maintenance create --title "Sunday backups" --start 2026-03-22T02:00:00+01:00 --duration 1h --recurrence "FREQ=WEEKLY;BYDAY=SU" --timezone Europe/Berlin --label team=shop',
      ),
    )
    .action(action(() => import('./commands/maintenance-create.js').then((m) => ({ run: m.create }))));
  maintenance
    .command('delete')
    .description('delete a maintenance window (asks first; --yes to skip the question)')
    .argument('<uid>', 'the window uid (svc maintenance list)')
    .addHelpText('after', example('svc maintenance delete 01JQ3W7M6Z0C4R8Y2H5K9T1B3D --yes'))
    .action(action(() => import('./commands/maintenance-delete.js').then((m) => ({ run: m.remove }))));

  const orgs = program.command('orgs').description('your organizations');
  orgs
    .command('list')
    .description('list the organizations you belong to, with your role')
    .addHelpText('after', example('svc orgs list --json'))
    .action(action(() => import('./commands/orgs.js').then((m) => ({ run: m.list }))));
  orgs
    .command('create')
    .description('create an organization; you become its owner')
    .requiredOption('--name <name>', 'the organization name')
    .option('--slug <slug>', 'its slug (default: derived from the name)')
    .addHelpText('after', example('svc orgs create --name "Acme Corp" --slug acme'))
    .action(action(() => import('./commands/orgs.js').then((m) => ({ run: m.create }))));

  const members = program.command('members').description("the organization's members (organization: --org, SVC_ORG, or your only one)");
  members
    .command('list')
    .description('list members and their roles')
    .addHelpText('after', example('svc members list --org acme'))
    .action(action(() => import('./commands/members.js').then((m) => ({ run: m.list }))));
  members
    .command('set-role')
    .description("change a member's role")
    .argument('<member>', 'the member, by uid or e-mail address')
    .argument('<role>', 'owner, admin, user or viewer')
    .addHelpText('after', example('svc members set-role ann@example.com admin'))
    .action(action(() => import('./commands/members.js').then((m) => ({ run: m.setRole }))));
  members
    .command('remove')
    .description('remove a member from the organization (asks first; --yes to skip the question)')
    .argument('<member>', 'the member, by uid or e-mail address')
    .addHelpText('after', example('svc members remove ann@example.com --yes'))
    .action(action(() => import('./commands/members.js').then((m) => ({ run: m.remove }))));
  members
    .command('invite')
    .description('invite someone by e-mail; the invitation link is mailed, or printed when the daemon sends no mail')
    .argument('<email>', 'their e-mail address')
    .option('--role <role>', 'owner, admin, user or viewer', 'viewer')
    .addHelpText('after', example('svc members invite bob@example.com --role user'))
    .action(action(() => import('./commands/members.js').then((m) => ({ run: m.invite }))));

  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      example(
        'source <(svc completion bash)            # bash, or in ~/.bashrc\nsvc completion zsh > "${fpath[1]}/_svc"     # zsh\nsvc completion fish > ~/.config/fish/completions/svc.fish',
      ),
    )
    .action(async function (this: Command, shell: string) {
      // The script describes the program that declared this command, handed down (the command
      // module does not import this file back).
      const { completionScript } = await import('./commands/completion.js');
      process.stdout.write(completionScript(shell, program));
    });

  program
    .command('help')
    .description('show help for a command, or a topic: exit-codes')
    .argument('[topic...]', 'a command (e.g. checks apply) or exit-codes')
    .addHelpText('after', example('svc help checks apply\nsvc help exit-codes'))
    .action(function (this: Command, topic: string[]) {
      showHelp(program, topic);
    });
}

/** `svc help [command...]` or `svc help exit-codes`. */
function showHelp(program: Command, topic: string[]): void {
  if (topic.join(' ') === 'exit-codes') {
    process.stdout.write(EXIT_CODES_HELP);
    return;
  }
  let command = program;
  for (const name of topic) {
    const next = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!next) throw new CliError(`no command or help topic "${topic.join(' ')}" (see svc --help, or svc help exit-codes)`, EXIT.usage);
    command = next;
  }
  command.outputHelp();
}

/** Runs the CLI and returns the exit code; errors become one line on stderr, never a stack. */
export async function runCli(argv: string[]): Promise<number> {
  exitQuietlyOnClosedPipe(process.stdout);
  exitQuietlyOnClosedPipe(process.stderr);
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`svc: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`svc: unexpected error: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT.failure;
  }
}
