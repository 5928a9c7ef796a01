// Enterprise sign-in as the API shows it: an organization's SAML identity provider, its
// directory group to role mapping, its team-chat workspace, and the server's enterprise tenant.
// No imports outside the contract: the dashboard bundles it.

/** The roles a directory group can give: never `owner`. */
export const GROUP_ROLES = ['admin', 'user', 'viewer'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** An organization's directory group → role mapping (`GET`/`PUT /orgs/{org}/group-roles`). */
export interface GroupRoles {
  groupRoles: Record<string, GroupRole>;
}

/** The SAML identity provider of an organization as the API shows it (no key material). */
export interface SamlProvider {
  idpEntityId: string;
  idpSsoUrl: string;
  metadataUrl: string | null;
  /** SHA-256 fingerprints of the signing certificates, to compare with the provider's. */
  certificateFingerprints: string[];
  required: boolean;
  /** What to enter at the identity provider. */
  serviceProvider: { entityId: string; acsUrl: string; metadataUrl: string; loginUrl: string };
  updatedAt: string;
}

/** The team-chat workspace an organization is linked to, or that it is linked to none. */
export type WorkspaceLink = { linked: true; workspaceId: string; workspaceName: string | null; linkedAt: string } | { linked: false };

/** Where to send the browser next (an app installation, a provider's consent page). */
export interface RedirectUrl {
  url: string;
}

/** The enterprise directory's tenant: the effective one, the configured one and the super admin's override. */
export interface EnterpriseTenant {
  effective: string;
  configured: string;
  override: string | null;
  /** The override differs from what the running daemon uses until it restarts. */
  pendingRestart: boolean;
}
