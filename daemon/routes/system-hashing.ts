import { z } from 'zod';
import { HASHING_PARAMETER } from '../auth/boot-policy.js';
import { mergePolicy, PASSWORD_PRESETS, validatePolicy, validatePolicyOverrides, type PolicyOverrides } from '../auth/password/index.js';
import type { AppDeps } from '../deps.js';
import { validationFailed } from '../errors.js';
import { readParameter, writeParameter } from '../parameters.js';
import { route, type RouteSpec } from '../http/route.js';

/** Removes null and empty sections, so stored overrides hold only what was set. */
function compact(overrides: PolicyOverrides): PolicyOverrides {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) {
    if (value == null) continue;
    if (typeof value === 'object') {
      const inner = Object.fromEntries(Object.entries(value).filter(([, v]) => v != null));
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else out[key] = value;
  }
  return out as PolicyOverrides;
}

async function hashingView(deps: AppDeps) {
  const stored = await readParameter(deps, null, HASHING_PARAMETER);
  const overrides = stored.malformed === undefined && validatePolicyOverrides(stored.value).length === 0 ? ((stored.value ?? {}) as PolicyOverrides) : {};
  return {
    effective: deps.policy.effective,
    overrides,
    presets: PASSWORD_PRESETS,
    pendingRestart: JSON.stringify(compact(overrides)) !== JSON.stringify(compact(deps.policy.applied)),
  };
}

/** The super admin's password hashing overrides (effective after a restart). */
export const systemHashingRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/system/hashing',
    permission: 'superAdmin',
    response: 'HashingView',
    summary: 'The policy in force, the stored overrides, the presets, and whether a restart is pending.',
    handler: async ({ deps }) => hashingView(deps),
  }),
  route({
    method: 'PUT',
    path: '/system/hashing',
    permission: 'superAdmin',
    response: 'HashingView',
    summary: 'Replace the stored overrides; validated now, effective after a restart.',
    // Validated by the policy's own rules, which name each field.
    bodyType: 'PolicyOverrides',
    body: z.unknown(),
    async handler({ deps, body: input }) {
      const issues = validatePolicyOverrides(input);
      const overrides = compact((input ?? {}) as PolicyOverrides);
      if (issues.length === 0) issues.push(...validatePolicy(mergePolicy(deps.config.auth.password, overrides)).errors);
      if (issues.length > 0) {
        throw validationFailed(
          issues.map((i) => ({ path: i.field, message: i.message })),
          'The hashing settings are not valid.',
        );
      }
      await writeParameter(deps, null, HASHING_PARAMETER, overrides);
      deps.logger.info({ overrides }, 'password hashing overrides stored; effective after restart');
      return hashingView(deps);
    },
  }),
];
