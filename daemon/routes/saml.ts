import { z } from 'zod';
import { completeSamlLogin, serviceProviderMetadata, startSamlLogin, ACS_BODY_LIMIT } from '../auth/saml/saml-login.js';
import { deleteSamlProvider, findSamlProvider, samlProviderView, storeSamlProvider } from '../auth/saml/saml-providers.js';
import { forbidden, notFound } from '../errors.js';
import { failurePage } from '../auth/oauth/flow.js';
import { route, type RouteSpec } from '../http/route.js';

const samlBody = z
  .object({
    metadataXml: z
      .string()
      .min(1)
      .max(512 * 1024)
      .optional(),
    metadataUrl: z.string().url().max(2000).optional(),
    required: z.boolean().optional(),
  })
  .strict()
  .refine((b) => (b.metadataXml === undefined) !== (b.metadataUrl === undefined), { message: 'exactly one of metadataXml and metadataUrl is required' });

/** SAML 2.0 sign-in per organization: its identity provider (admins), SP metadata, login and ACS. */
export const samlRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/saml',
    permission: 'organization:settings',
    response: 'SamlProvider',
    summary: "The organization's SAML identity provider, whether SAML is required, and the service provider's addresses (admin).",
    async handler({ deps, auth }) {
      const row = await findSamlProvider(deps, auth.org.uid);
      if (!row) throw notFound('No SAML identity provider is configured for this organization.');
      return samlProviderView(deps, auth.org, row);
    },
  }),
  route({
    method: 'PUT',
    path: '/orgs/:org/saml',
    permission: 'organization:settings',
    response: 'SamlProvider',
    summary:
      'Store the SAML identity provider from its metadata: `{metadataXml | metadataUrl (https), required?}` (admin; only an owner turns "SAML required" on or off).',
    body: samlBody,
    async handler({ deps, auth, body }) {
      // "SAML required" decides who may sign in at all: an owner's call, never an admin's.
      if (body.required !== undefined && auth.role !== 'owner' && body.required !== ((await findSamlProvider(deps, auth.org.uid))?.required === 1)) {
        throw forbidden('Only an owner of the organization may turn "SAML required" on or off.');
      }
      const row = await storeSamlProvider(deps, auth.org, auth.user.uid, body);
      return samlProviderView(deps, auth.org, row);
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/saml',
    permission: 'organization:settings',
    summary: 'Remove the SAML identity provider (and with it "SAML required", which only an owner may turn off; admin).',
    async handler({ deps, auth }) {
      if (auth.role !== 'owner' && (await findSamlProvider(deps, auth.org.uid))?.required === 1) {
        throw forbidden('Only an owner of the organization may turn "SAML required" off, or remove the identity provider while it is required.');
      }
      if (!(await deleteSamlProvider(deps, auth.org, auth.user.uid))) throw notFound('No SAML identity provider is configured for this organization.');
    },
  }),
  route({
    method: 'GET',
    path: '/auth/saml/:org/metadata',
    permission: 'public',
    writes: { mediaType: 'application/samlmetadata+xml', description: 'The service provider metadata (XML) to give the identity provider.' },
    summary: "The organization's SAML service provider metadata (XML), for its identity provider.",
    async handler({ ctx, deps, params }) {
      ctx.type = 'application/samlmetadata+xml';
      ctx.body = await serviceProviderMetadata(deps, params.org);
    },
  }),
  route({
    method: 'GET',
    path: '/auth/saml/:org/login',
    permission: 'public',
    writes: { redirect: true },
    summary: "Start a SAML sign-in: 302 to the organization's identity provider (`?returnTo=/path`).",
    async handler({ ctx, deps, params, query }) {
      try {
        ctx.redirect(await startSamlLogin(deps, ctx, params.org, query.get('returnTo')));
      } catch (error) {
        ctx.redirect(failurePage(deps, `saml:${params.org}`, error));
      }
    },
  }),
  route({
    method: 'POST',
    path: '/auth/saml/:org/acs',
    permission: 'public',
    writes: { redirect: true },
    rawBodyLimit: ACS_BODY_LIMIT,
    summary: 'The assertion consumer service (HTTP-POST binding): 302 to {base_url}/d/auth/complete?code=<one_time_code>, or ?error=<reason>.',
    async handler({ ctx, deps, params, body }) {
      ctx.redirect(await completeSamlLogin(deps, params.org, new URLSearchParams((body as Buffer).toString('utf8'))));
    },
  }),
];
