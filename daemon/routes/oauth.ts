import { z } from 'zod';
import { authorizationUrl, completeLogin, failurePage, providerOf } from '../auth/oauth/flow.js';
import { effectiveTenant, listProviders, TENANT_PARAMETER } from '../auth/oauth/registry.js';
import { validateTenant } from '../config/tenant.js';
import { validationFailed } from '../errors.js';
import { readParameter, writeParameter } from '../parameters.js';
import { route, type RouteSpec } from '../http/route.js';

/** External sign-in: the providers, the redirect to one, and its callback. */
export const oauthRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/auth/providers',
    permission: 'public',
    response: 'ProviderList',
    summary: 'The enabled external sign-in providers.',
    handler: async ({ deps }) => listProviders(deps),
  }),
  route({
    method: 'GET',
    path: '/auth/:provider/login',
    permission: 'public',
    writes: { redirect: true },
    summary: 'Start an external sign-in: 302 to the provider (`?returnTo=/path` is where the dashboard continues).',
    async handler({ ctx, deps, params, query }) {
      try {
        const provider = await providerOf(deps, params.provider);
        ctx.redirect(await authorizationUrl(deps, ctx, provider, { purpose: 'login', returnTo: query.get('returnTo') ?? '/' }));
      } catch (error) {
        ctx.redirect(failurePage(deps, params.provider, error));
      }
    },
  }),
  route({
    method: 'GET',
    path: '/auth/:provider/callback',
    permission: 'public',
    writes: { redirect: true },
    summary: "The provider's redirect back: 302 to {base_url}/d/auth/complete?code=<one_time_code>.",
    async handler({ ctx, deps, params, query }) {
      ctx.redirect(await completeLogin(deps, ctx, params.provider, query));
    },
  }),
  route({
    method: 'GET',
    path: '/system/sign-in/enterprise-tenant',
    permission: 'superAdmin',
    response: 'EnterpriseTenant',
    summary: 'The enterprise directory tenant in force, the stored override and whether a restart is pending.',
    handler: async ({ deps }) => tenantView(deps),
  }),
  route({
    method: 'PUT',
    path: '/system/sign-in/enterprise-tenant',
    permission: 'superAdmin',
    response: 'EnterpriseTenant',
    summary: 'Store the enterprise directory tenant (null to inherit the configuration); effective after a restart.',
    body: z.object({ tenantId: z.string().trim().max(253).nullable() }),
    async handler({ deps, body }) {
      if (body.tenantId !== null) {
        const problem = validateTenant(body.tenantId);
        if (problem) throw validationFailed([{ path: 'tenantId', message: problem }], 'The tenant is not valid.');
      }
      await writeParameter(deps, null, TENANT_PARAMETER, body.tenantId === null ? null : body.tenantId || 'common');
      deps.logger.info({ tenant: body.tenantId }, 'enterprise tenant stored; effective after restart');
      return tenantView(deps);
    },
  }),
];

async function tenantView(deps: Parameters<typeof effectiveTenant>[0]) {
  const stored = await readParameter(deps, null, TENANT_PARAMETER);
  const override = typeof stored.value === 'string' ? stored.value : null;
  const effective = await effectiveTenant(deps);
  return {
    effective,
    configured: deps.config.auth.enterpriseCloudTenantId,
    override,
    pendingRestart: (override ?? deps.config.auth.enterpriseCloudTenantId) !== effective,
  };
}
