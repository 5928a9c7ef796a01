import { Argument, Command, CommanderError } from 'commander';
import { createCommandDeps, type CommandDeps, type GlobalOptions } from './context.js';
import { CliError, EXIT } from './errors.js';
import { VERSION } from '../daemon/version.js';

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
    .description('svc: sign-in, access control and monitor import for your monitoring service.')
    .version(VERSION, '-V, --version')
    .option('--url <url>', 'daemon URL (default: SVC_URL, the saved sign-in, or http://localhost:4000)')
    .option('--token <token>', 'access token (default: SVC_TOKEN or the saved sign-in)')
    .option('--json', 'print machine-readable JSON only; never prompt')
    .option('-y, --yes', 'answer yes to confirmations; never prompt')
    .showHelpAfterError('(run with --help for usage)')
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
    .addHelpText('after', example('svc login --url http://localhost:4000 --email me@example.com\nprintf "%s" "$PW" | svc login --email me@example.com --password-stdin'))
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
    .argument('<assignments...>', 'KEY=VALUE pairs: algorithm, argon2.memory, argon2.time, argon2.threads, argon2.keyLength, argon2.saltLength, bcrypt.cost, rehashOnLogin')
    .addHelpText('after', example('svc admin hashing set argon2.memory=19456 argon2.time=2 argon2.threads=1'))
    .action(action(() => import('./commands/admin-hashing.js').then((m) => ({ run: m.set }))));
  hashing
    .command('preset')
    .description('store one of the presets as the overrides')
    .addArgument(new Argument('<name>', 'preset name').choices(['default', 'lighter', 'min', 'bcrypt']))
    .addHelpText('after', example('svc admin hashing preset lighter'))
    .action(action(() => import('./commands/admin-hashing.js').then((m) => ({ run: m.preset }))));

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
    .option('--org <slug>', 'organization')
    .option('--label <key=value>', 'only checks with this label (repeatable)', collect)
    .option('--type <type>', 'only checks of this type (see svc check-types)')
    .option('--limit <n>', 'at most this many checks')
    .addHelpText('after', example('svc checks list --label team=payments --label env=prod\nsvc checks list --type http --json'))
    .action(action(() => import('./commands/checks.js').then((m) => ({ run: m.list }))));
  checks
    .command('get')
    .description('show one check in full')
    .argument('<slug>', 'the check slug')
    .option('--org <slug>', 'organization')
    .addHelpText('after', example('svc checks get api-health --json'))
    .action(action(() => import('./commands/checks.js').then((m) => ({ run: m.get }))));
  checks
    .command('delete')
    .description('delete a check (asks first; --yes to skip the question)')
    .argument('<slug>', 'the check slug')
    .option('--org <slug>', 'organization')
    .addHelpText('after', example('svc checks delete api-health --yes'))
    .action(action(() => import('./commands/checks.js').then((m) => ({ run: m.remove }))));

  program
    .command('import')
    .description('import monitors from another tool as checks: a preview, then the import after a confirmation (--yes and --json are global flags)')
    .requiredOption('--source <source>', 'configfile-monitor, hosted-monitor-api, selfhosted-monitor-db or uptime-api-monitor (or the tool: gatus, betterstack, uptime-kuma, uptimerobot)')
    .option('--file <path>', 'the export to import (YAML, JSON, or the self-hosted monitor\'s database file)')
    .option('--stdin', 'read the export (or the API token) from standard input')
    .option('--token-env <var>', 'hosted-monitor-api: the environment variable that holds the API token')
    .option('--org <slug>', 'organization (default: SVC_ORG, your only one, the token\'s, or default)')
    .option('--dry-run', 'preview only: write nothing')
    .option('--local', 'convert here without a daemon (preview only)')
    .option('--strict', 'exit with code 3 when any item was skipped')
    .addHelpText(
      'after',
      example(
        'svc import --source gatus --file config.yaml --dry-run\nsvc import --source uptime-kuma --file kuma.db --yes\n' +
          'svc import --source betterstack --token-env BETTERSTACK_TOKEN --yes --strict\nsvc import --source uptimerobot --file monitors.json --local',
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
    .description("print the JSON an MCP client needs to connect (the endpoint URL and the Authorization header), for the client's configuration file")
    .option('--token <token>', 'the token to put in the header (default: SVC_TOKEN or the saved sign-in); best a personal access token scoped mcp or mcp:read')
    .option('--name <name>', 'the server name under mcpServers', 'svc')
    .addHelpText('after', example('svc mcp config --token "$(svc token create --name agent --org acme --scope mcp --json | jq -r .token)" > .mcp.json'))
    .action(action(() => import('./commands/mcp-config.js')));

  // Access tokens and e-mail changes.
  const token = program.command('token').description('your personal access tokens: each bound to one organization, acting with your current role there');
  token
    .command('create')
    .description('mint a token; its secret is printed once')
    .option('--name <name>', 'what the token is for')
    .option('--org <slug>', 'the organization it works in')
    .option('--scope <scope>', 'api, api:read, mcp or mcp:read (repeatable or comma-separated; default api and mcp)', collect)
    .option('--expires <when>', 'a duration (30d, 12h, 90m, 2w), a date (2026-12-31), or never (the default)')
    .addHelpText('after', example('svc token create --name ci --org acme --scope api:read --expires 30d\nsvc token create --name agent --org acme --scope mcp:read --json'))
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

  return program;
}

/** Runs the CLI and returns the exit code; errors become one line on stderr, never a stack. */
export async function runCli(argv: string[]): Promise<number> {
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
