import { startFakeProvider, type FakeProvider } from './fake-providers.js';
import { startOidcServer, type OidcServer } from './oidc-server.js';

/** The tenant of the test enterprise directory. */
export const TEST_TENANT = '0d5c6e34-7a0b-4a9e-9a63-3f2b1c8e9d10';

/** Every provider of the daemon, each a real server on loopback. */
export interface TestProviders {
  searchPortal: OidcServer;
  enterpriseCloud: OidcServer;
  teamChat: OidcServer;
  genericOidc: OidcServer;
  codeHostA: FakeProvider;
  codeHostB: FakeProvider;
  gameChat: FakeProvider;
  /** Paths the enterprise directory was called at, before its tenant prefix was stripped. */
  enterpriseRawPaths: string[];
  /** The daemon's environment enabling all of them. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const client = (key: string) => ({ clientId: `${key}-client`, clientSecret: `${key}-secret-value` });
const callback = (base: string, key: string) => [`${base}/api/v1/auth/${key}/callback`];

/** Starts all seven providers for a daemon whose base URL is `base`. */
export async function startTestProviders(base: string): Promise<TestProviders> {
  const enterpriseRawPaths: string[] = [];
  const [searchPortal, enterpriseCloud, teamChat, genericOidc, codeHostA, codeHostB, gameChat] = await Promise.all([
    startOidcServer({ ...client('search_portal'), redirectUris: callback(base, 'search_portal'), claimsInIdToken: true }),
    startOidcServer({
      ...client('enterprise_cloud'),
      redirectUris: callback(base, 'enterprise_cloud'),
      issuerPath: `/${TEST_TENANT}/v2.0`,
      extraClaims: ['tid', 'xms_edov'],
      claimsInIdToken: true,
      // The directory serves every tenant under its own path prefix.
      rewrite(path) {
        enterpriseRawPaths.push(path.split('?')[0]);
        return path
          .replace(/^\/[^/]+\/oauth2\/v2\.0\/authorize/, '/auth')
          .replace(/^\/[^/]+\/oauth2\/v2\.0\/token/, '/token')
          .replace(/^\/[^/]+\/discovery\/v2\.0\/keys/, '/jwks');
      },
    }),
    startOidcServer({
      ...client('team_chat'),
      redirectUris: callback(base, 'team_chat'),
      extraClaims: ['https://slack.com/team_id', 'https://slack.com/is_guest'],
      claimsInIdToken: true,
    }),
    // Keeps e-mail claims out of the ID token, so the user-info endpoint is exercised.
    startOidcServer({ ...client('oidc'), redirectUris: callback(base, 'oidc'), tokenAuth: 'client_secret_basic' }),
    startFakeProvider('code_host_a', client('code_host_a')),
    startFakeProvider('code_host_b', client('code_host_b')),
    startFakeProvider('game_chat', client('game_chat')),
  ]);
  const e = enterpriseCloud.origin;
  const env = {
    ...searchPortal.env('search_portal'),
    ...teamChat.env('team_chat'),
    ...enterpriseCloud.env('enterprise_cloud'),
    SVC_ENTERPRISE_CLOUD_AUTHORIZE_URL: `${e}/{tenant}/oauth2/v2.0/authorize`,
    SVC_ENTERPRISE_CLOUD_TOKEN_URL: `${e}/{tenant}/oauth2/v2.0/token`,
    SVC_ENTERPRISE_CLOUD_JWKS_URL: `${e}/{tenant}/discovery/v2.0/keys`,
    SVC_ENTERPRISE_CLOUD_ISSUER: `${e}/{tenantid}/v2.0`,
    SVC_ENTERPRISE_CLOUD_TENANT_ID: TEST_TENANT,
    SVC_OIDC_ISSUER: genericOidc.issuer,
    SVC_OIDC_CLIENT_ID: client('oidc').clientId,
    SVC_OIDC_CLIENT_SECRET: client('oidc').clientSecret,
    SVC_OIDC_DISPLAY_NAME: 'Company SSO',
    ...codeHostA.env(),
    ...codeHostB.env(),
    ...gameChat.env(),
  };
  return {
    searchPortal,
    enterpriseCloud,
    teamChat,
    genericOidc,
    codeHostA,
    codeHostB,
    gameChat,
    enterpriseRawPaths,
    env,
    close: async () => {
      await Promise.all([searchPortal, enterpriseCloud, teamChat, genericOidc, codeHostA, codeHostB, gameChat].map((p) => p.close()));
    },
  };
}
