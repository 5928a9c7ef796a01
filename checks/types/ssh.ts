import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { invert, password, secretField, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** An SSH handshake, optionally with a command. */
export const sshCheck = defineCheckType({
  type: 'ssh',
  title: 'SSH',
  description:
    'Connects to an SSH server and checks its banner; with a user name and a command, runs the command ' +
    'and checks its exit code. The password or private key is a secret reference.',
  target: hostPortTarget('The server (port 22 by default).', 'bastion.example.com:22', 22),
  config: z.strictObject({
    username,
    password,
    privateKey: secretField('A private key (OpenSSH or PEM) to sign in with.'),
    passphrase: secretField('The passphrase of an encrypted private key.'),
    command: z.string().min(1).max(4096).optional().describe('A command to run after signing in.'),
    expectedExitCode: z.int().min(0).max(255).default(0).describe('The exit code the command must return.'),
    invert,
  }),
  sample: { name: 'Bastion SSH', target: 'bastion.example.com', config: {} },
});
