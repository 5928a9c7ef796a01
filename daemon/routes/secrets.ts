import { z } from 'zod';
import { SECRET_NAME_PATTERN } from '../../checks/index.js';
import { AppError, notFound, validationFailed } from '../errors.js';
import { deleteSecret, listSecrets, setSecret } from '../secrets/secret-store.js';
import { sealAtRest } from '../secrets/seal-at-rest.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';

const NAME_MESSAGE = 'a secret name is an upper-case letter, then up to 63 upper-case letters, digits and "_" (e.g. DB_PASSWORD)';

/** The secret name of the path, or a 400 saying what a name may be. */
function secretName(params: Record<string, string>): string {
  if (!SECRET_NAME_PATTERN.test(params.name)) throw validationFailed([{ path: 'name', message: NAME_MESSAGE }], 'The secret name is not valid.');
  return params.name;
}

/** Organization secrets: values are write-only; the API answers names, dates and use. */
export const secretRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/secrets',
    permission: 'secrets:read',
    response: 'SecretList',
    summary: 'List the secrets by name: {name, createdAt, updatedAt, usedBy: [check slugs]}; never a value.',
    handler: async ({ deps, auth }) => ({ items: await listSecrets(deps, orgOf(auth).uid) }),
  }),
  route({
    method: 'PUT',
    path: '/orgs/:org/secrets/:name',
    permission: 'secrets:write',
    response: 'SecretWritten',
    summary: 'Set a secret {value} (created or replaced, stored encrypted); answers {name, created, createdAt, updatedAt}, never the value.',
    body: z.strictObject({ value: z.string().min(1).max(16_384) }),
    handler: async ({ deps, auth, params, body }) => setSecret(deps, orgOf(auth).uid, secretName(params), body.value, auth.user.uid),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/secrets/:name',
    permission: 'secrets:write',
    summary: 'Delete a secret; checks that refer to it then fail with "secret NAME is not set".',
    async handler({ deps, auth, params }) {
      const name = secretName(params);
      if (!(await deleteSecret(deps, orgOf(auth).uid, name, auth.user.uid))) throw notFound(`No secret ${name} in this organization.`);
    },
  }),
  route({
    method: 'POST',
    path: '/system/secrets/rotate',
    permission: 'superAdmin',
    response: 'SecretsRotated',
    summary:
      'Re-encrypt every stored secret with the current key (SVC_SECRET_KEY), reading old values with SVC_SECRET_KEY_PREVIOUS; answers {reencrypted, keyId}.',
    async handler({ deps }) {
      try {
        return { reencrypted: await sealAtRest(deps.db, deps.keyring, 'rotate'), keyId: deps.keyring.currentId };
      } catch (error) {
        // The keyring's own sentences name key ids, never key material.
        deps.logger.error({ reason: (error as Error).message }, 'secret rotation stopped');
        throw new AppError(
          'CONFLICT',
          `The rotation stopped: ${(error as Error).message}. Values re-encrypted so far stay readable; run it again once fixed.`,
          { reason: 'KEY_MISSING' },
        );
      }
    },
  }),
];
