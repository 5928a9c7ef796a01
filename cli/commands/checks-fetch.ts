import type { ApiClient } from '../client.js';
import { orgPath } from './checks-org.js';

/** Every check of an organization, page by page, optionally only those with all the labels given (`key=value`). */
export async function allChecks(client: ApiClient, org: string, labels: string[] = []): Promise<Record<string, unknown>[]> {
  const checks: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: Record<string, unknown>[]; nextCursor: string | null } = await client.get(`${orgPath(org)}/checks`, {
      query: { label: labels, limit: '500', cursor: cursor ?? undefined },
    });
    checks.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return checks;
}
