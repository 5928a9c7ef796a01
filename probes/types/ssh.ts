import type { Client, ConnectConfig } from 'ssh2';
import { onAbort } from '../abort.js';
import { connectTcp } from '../connect.js';
import { networkFailure } from '../connection-errors.js';
import { passwordOf } from '../credentials.js';
import { defineProbe, ProbeFailure, type ProbeContext } from '../probe.js';
import { readReply } from '../socket-reply.js';
import { resolveTarget, type TargetAddress } from '../target-address.js';

/**
 * SSH: without a user name, reads the server's identification banner over plain TCP (no key
 * exchange, nothing logged as a failed sign-in); with one, signs in through `ssh2` (the
 * maintained pure-JavaScript SSH client) with the password or private key, runs `command` when
 * set and compares its exit code.
 */
export const sshProbe = defineProbe({
  type: 'ssh',
  async run(check, context) {
    const { config } = check;
    const target = await resolveTarget(check.target, 22, context);
    if (!config.username) {
      if (config.command) throw new ProbeFailure('running a command needs a username');
      return { message: await readBanner(target, context) };
    }
    const { Client } = await import('ssh2');
    const client = new Client();
    client.on('error', () => {}); // the first failure rejects the sign-in; later ones add nothing
    const forget = onAbort(context.signal, () => client.destroy());
    try {
      await signIn(client, {
        host: target.address,
        port: target.port,
        username: config.username,
        // Secrets, substituted before the run.
        password: passwordOf(config),
        privateKey: config.privateKey || undefined,
        passphrase: config.passphrase || undefined,
        readyTimeout: context.timeoutMs,
        // No agent, no keyboard prompts: only what the check was given.
        tryKeyboard: false,
      });
      if (!config.command) return { message: `signed in as ${config.username}` };
      const code = await execute(client, config.command);
      if (code !== config.expectedExitCode) {
        throw new ProbeFailure(`the command exited with ${code}, expected ${config.expectedExitCode}`);
      }
      return { message: `the command exited with ${code}` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw networkFailure(error, target.host, target.port) ?? describe(error, config.username);
    } finally {
      forget();
      client.destroy();
    }
  },
});

/** Reads the `SSH-2.0-...` identification line the server sends first. */
async function readBanner(target: TargetAddress, context: ProbeContext): Promise<string> {
  const socket = await connectTcp(target.address, target.port, context);
  try {
    const text = await readReply(socket, { complete: (seen) => seen.includes('\n'), quietMs: 2_000, maxBytes: 8_192, signal: context.signal });
    // RFC 4253 lets a server send other lines before its identification.
    const banner = text.split(/\r?\n/).find((line) => line.startsWith('SSH-'));
    if (!banner) throw new ProbeFailure(`not an SSH server: ${JSON.stringify(text.slice(0, 40))}`);
    return banner.trim().slice(0, 120);
  } finally {
    socket.destroy();
  }
}

function signIn(client: Client, options: ConnectConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
    client.once('close', () => reject(new ProbeFailure('the server closed the connection')));
    client.connect(options);
  });
}

/** Runs `command` and resolves with its exit code; a command ended by a signal fails. */
function execute(client: Client, command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    client.exec(command, (error, channel) => {
      if (error) return reject(new ProbeFailure(`the server refused the command: ${error.message}`));
      // Output is drained (a full window would stall the command) and dropped: only the code counts.
      channel.resume();
      channel.stderr.resume();
      channel.once('exit', (code: number | null, signal?: string) => {
        if (typeof code === 'number') resolve(code);
        else reject(new ProbeFailure(`the command was ended by ${signal ?? 'a signal'}`));
      });
      channel.once('close', () => reject(new ProbeFailure('the channel closed without an exit code')));
    });
  });
}

/** ssh2's errors about signing in, as a plain sentence; others by their level and first line. */
function describe(error: unknown, username: string): ProbeFailure {
  if (error instanceof ProbeFailure) return error;
  const { level, message } = error as { level?: string; message?: string };
  if (level === 'client-authentication') return new ProbeFailure(`authentication failed for user "${username}"`);
  if (level === 'client-timeout') return new ProbeFailure('the SSH handshake did not finish in time');
  if (message?.includes('privateKey') || message?.includes('private key')) return new ProbeFailure('the private key cannot be read');
  return new ProbeFailure(`SSH failed: ${(message ?? String(error)).split('\n')[0]}`);
}
