import type { ComponentChildren } from 'preact';
import type { Account, Role } from './api/types';
import { roleIn } from './lib/roles';
import { AccountPage } from './pages/account';
import { AuditLogPage } from './pages/audit-log';
import { ChannelsPage } from './pages/channels';
import { CheckDetailPage } from './pages/check-detail';
import { CheckFormPage } from './pages/check-form';
import { ChecksListPage } from './pages/checks-list';
import { ImportPage } from './pages/import';
import { IncidentsPage } from './pages/incidents';
import { MembersPage } from './pages/members';
import { OrgSettingsPage } from './pages/org-settings';
import { SecretsPage } from './pages/secrets';
import { MaintenancePage } from './pages/maintenance';
import { OverviewPage } from './pages/overview';
import { ServerAuthenticationPage } from './pages/server-authentication';
import { ServerHashingPage } from './pages/server-hashing';
import { ServerUsersPage } from './pages/server-users';
import { StatusPageEditorPage } from './pages/status-page-editor';
import { StatusPagesPage } from './pages/status-pages';

export interface PageContext {
  account: Account;
  params: Record<string, string>;
  search: URLSearchParams;
  /** The caller's role in the organization of the path, when it has one. */
  role?: Role;
}

export interface PageRoute {
  pattern: string;
  render(context: PageContext): ComponentChildren;
}

/**
 * The signed-in pages. Organization pages live under /orgs/:org. Pages that are not a check sit
 * under /checks/-/..., since `-` is never a check's slug.
 */
export const PAGE_ROUTES: PageRoute[] = [
  { pattern: '/d/account', render: ({ account }) => <AccountPage account={account} /> },
  { pattern: '/orgs/:org/checks', render: ({ params, role, search }) => <ChecksListPage org={params.org} role={role} search={search} /> },
  { pattern: '/orgs/:org/checks/-/import', render: ({ params, role }) => <ImportPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/checks/-/new', render: ({ params, role }) => <CheckFormPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/checks/:slug', render: ({ params, role }) => <CheckDetailPage org={params.org} slug={params.slug} role={role} /> },
  { pattern: '/orgs/:org/checks/:slug/edit', render: ({ params, role }) => <CheckFormPage org={params.org} slug={params.slug} role={role} /> },
  { pattern: '/orgs/:org/incidents', render: ({ params, role, search }) => <IncidentsPage org={params.org} role={role} search={search} /> },
  { pattern: '/orgs/:org/members', render: ({ params, role, account }) => <MembersPage org={params.org} role={role} account={account} /> },
  { pattern: '/orgs/:org/settings', render: ({ params, role }) => <OrgSettingsPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/audit-log', render: ({ params, search }) => <AuditLogPage org={params.org} search={search} /> },
  { pattern: '/orgs/:org/server/hashing', render: () => <ServerHashingPage /> },
  { pattern: '/orgs/:org/server/authentication', render: () => <ServerAuthenticationPage /> },
  { pattern: '/orgs/:org/server/users', render: () => <ServerUsersPage /> },
  { pattern: '/orgs/:org/maintenance', render: ({ params, role }) => <MaintenancePage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/secrets', render: ({ params, role }) => <SecretsPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/status-pages', render: ({ params, role }) => <StatusPagesPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/status-pages/-/new', render: ({ params, role }) => <StatusPageEditorPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/status-pages/:slug', render: ({ params, role }) => <StatusPageEditorPage org={params.org} slug={params.slug} role={role} /> },
  { pattern: '/orgs/:org/channels', render: ({ params, role }) => <ChannelsPage org={params.org} role={role} /> },
  { pattern: '/orgs/:org/overview', render: ({ params }) => <OverviewPage org={params.org} /> },
];

export const withRole = (account: Account, params: Record<string, string>): Role | undefined => (params.org ? roleIn(account, params.org) : undefined);
