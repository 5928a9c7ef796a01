/**
 * The external identity providers: canonical neutral keys, the platform name each is also known by
 * (accepted in paths and configuration), and their kind.
 */
export const PROVIDERS = [
  { key: 'search_portal', alias: 'google', kind: 'large web-portal identity provider', displayName: 'Google' },
  { key: 'code_host_a', alias: 'github', kind: 'hosted code platform', displayName: 'GitHub' },
  { key: 'code_host_b', alias: 'gitlab', kind: 'hosted code platform', displayName: 'GitLab' },
  { key: 'enterprise_cloud', alias: 'microsoft', kind: 'enterprise cloud directory', displayName: 'Microsoft' },
  { key: 'team_chat', alias: 'slack', kind: 'team-chat platform', displayName: 'Slack' },
  { key: 'game_chat', alias: 'discord', kind: 'community chat platform', displayName: 'Discord' },
] as const;

export type ProviderKey = (typeof PROVIDERS)[number]['key'];

/** The canonical key for a key or alias, or undefined. */
export function canonicalProviderKey(name: string): ProviderKey | undefined {
  const lower = name.toLowerCase();
  return PROVIDERS.find((p) => p.key === lower || p.alias === lower)?.key;
}
