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

function navItems(account: Account, org: string | undefined): NavItem[] {
  const items: NavItem[] = [];
  if (org) {
    const role = roleIn(account, org);
    const base = `/orgs/${encodeURIComponent(org)}`;
    if (role) {
      items.push({ href: `${base}/checks`, label: 'Checks' });
      if (canWrite(role)) items.push({ href: `${base}/checks/-/import`, label: 'Import' });
      items.push({ href: `${base}/incidents`, label: 'Incidents' });
      items.push({ href: `${base}/members`, label: 'Members' });
      if (isAdmin(role)) items.push({ href: `${base}/audit-log`, label: 'Audit log' });
      items.push({ href: `${base}/settings`, label: 'Settings' });
    }
    if (account.superAdmin) {
      items.push({ href: `${base}/server/hashing`, label: 'Password hashing' });
      items.push({ href: `${base}/server/authentication`, label: 'Authentication' });
      items.push({ href: `${base}/server/users`, label: 'Users' });
    }
  }
  items.push({ href: '/d/account', label: 'Account' });
  return items;
}

/** The page frame: skip link, organization switcher, navigation, sign-out, and the page. */
export function Shell({ account, org, path, children }: { account: Account; org?: string; path: string; children: ComponentChildren }) {
  const current = org ?? account.organizations[0]?.slug;
  // Pages outside an organization (the account) keep the first organization's navigation.
  const items = navItems(account, current);
  // The longest matching entry is the current one (Import lives under Checks).
  const active = items
    .filter((item) => path === item.href || path.startsWith(`${item.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
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
            <select id="org-select" value={current} onChange={(event) => navigate(`/orgs/${encodeURIComponent((event.currentTarget as HTMLSelectElement).value)}/checks`)}>
              {org && !account.organizations.some((o) => o.slug === org) ? <option value={org}>{org}</option> : null}
              {account.organizations.map((o) => (
                <option key={o.slug} value={o.slug}>
                  {o.name || o.slug}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <span class="whoami" title={account.email}>
          {account.name || account.email}
        </span>
        <button type="button" class="link-button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav class="mainnav" aria-label="Main">
        <ul>
          {items.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={item.href === active ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </div>
  );
}
