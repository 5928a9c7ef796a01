import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { Account } from '../api/types';
import { navigate } from '../lib/router';
import { canWrite, isAdmin, roleIn } from '../lib/roles';
import { signOut } from '../lib/session';
import { Link } from './link';

interface NavItem {
  href: string;
  label: string;
}

/** A labelled part of the navigation: the organization's pages, the server's, the account. */
interface NavGroup {
  label: string;
  items: NavItem[];
}

function navGroups(account: Account, org: string | undefined): NavGroup[] {
  const groups: NavGroup[] = [];
  if (org) {
    const role = roleIn(account, org);
    const base = `/orgs/${encodeURIComponent(org)}`;
    if (role) {
      const items: NavItem[] = [
        { href: `${base}/overview`, label: 'Overview' },
        { href: `${base}/checks`, label: 'Checks' },
      ];
      if (canWrite(role)) items.push({ href: `${base}/checks/-/import`, label: 'Import' });
      items.push({ href: `${base}/incidents`, label: 'Incidents' });
      items.push({ href: `${base}/maintenance`, label: 'Maintenance' });
      items.push({ href: `${base}/status-pages`, label: 'Status pages' });
      items.push({ href: `${base}/channels`, label: 'Channels' });
      items.push({ href: `${base}/members`, label: 'Members' });
      if (isAdmin(role)) items.push({ href: `${base}/audit-log`, label: 'Audit log' });
      if (isAdmin(role)) items.push({ href: `${base}/secrets`, label: 'Secrets' });
      items.push({ href: `${base}/settings`, label: 'Settings' });
      groups.push({ label: 'Organization', items });
    }
    if (account.superAdmin) {
      groups.push({
        label: 'Server',
        items: [
          { href: `${base}/server/hashing`, label: 'Password hashing' },
          { href: `${base}/server/authentication`, label: 'Authentication' },
          { href: `${base}/server/users`, label: 'Users' },
        ],
      });
    }
  }
  groups.push({ label: 'You', items: [{ href: '/d/account', label: 'Account' }] });
  return groups;
}

/** The page frame: skip link, organization switcher, navigation, sign-out, and the page. */
export function Shell({ account, org, path, children }: { account: Account; org?: string; path: string; children: ComponentChildren }) {
  const current = org ?? account.organizations[0]?.slug;
  // Pages outside an organization (the account) keep the first organization's navigation.
  const groups = navGroups(account, current);
  const items = groups.flatMap((group) => group.items);
  // The longest matching entry is the current one (Import lives under Checks).
  const active = items.filter((item) => path === item.href || path.startsWith(`${item.href}/`)).sort((a, b) => b.href.length - a.href.length)[0]?.href;
  // On a phone the navigation folds behind a Menu button; following a link folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link href="/" class="brand">
          svc
        </Link>
        {account.organizations.length > 0 ? (
          <div class="org-switch">
            <label for="org-select" class="visually-hidden">
              Organization
            </label>
            <select
              id="org-select"
              value={current}
              onChange={(event) => navigate(`/orgs/${encodeURIComponent((event.currentTarget as HTMLSelectElement).value)}/overview`)}
            >
              {org && !account.organizations.some((o) => o.slug === org) ? <option value={org}>{org}</option> : null}
              {account.organizations.map((o) => (
                <option key={o.slug} value={o.slug}>
                  {o.name || o.slug}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="mainnav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <span class="whoami" title={account.email}>
          {account.name || account.email}
        </span>
        <button type="button" class="link-button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav id="mainnav" class={menuOpen ? 'mainnav open' : 'mainnav'} aria-label="Main">
        {groups.map((group) => (
          <div class="nav-group" key={group.label}>
            <span class="nav-group-label" id={`nav-${group.label}`}>
              {group.label}
            </span>
            <ul aria-labelledby={`nav-${group.label}`}>
              {group.items.map((item) => (
                <li key={item.href}>
                  <Link href={item.href} aria-current={item.href === active ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {children}
    </div>
  );
}
