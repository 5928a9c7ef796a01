import type { ComponentChildren } from 'preact';
import type { Account } from './api/types';
import { AccountPage } from './pages/account';
import { ServerHashingPage } from './pages/server-hashing';

export interface PageContext {
  account: Account;
  params: Record<string, string>;
  search: URLSearchParams;
}

export interface PageRoute {
  pattern: string;
  render(context: PageContext): ComponentChildren;
}

/** The signed-in pages. Org pages live under /orgs/:org; `-` is never a check slug, so /checks/-/... is free. */
export const PAGE_ROUTES: PageRoute[] = [
  { pattern: '/d/account', render: ({ account }) => <AccountPage account={account} /> },
  { pattern: '/orgs/:org/server/hashing', render: () => <ServerHashingPage /> },
];
