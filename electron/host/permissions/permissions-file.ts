import { join } from 'node:path';
import { DEFAULT_POLICY, type PermissionPolicy, PermissionPolicySchema } from '../../../shared/permissions.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import { keepAside, readJson, writeFileAtomic } from '../data-dir.js';

export function permissionsPath(dataDir: string): string {
  return join(dataDir, 'permissions.json');
}

/**
 * The saved policy, or the defaults when there is none. A file that is not a valid policy is moved
 * aside (kept for the user) and reported; the inspector starts with the defaults then.
 */
export function readPolicy(path: string): PermissionPolicy {
  const raw = readJson<unknown>(path, { quarantine: true });
  if (raw === undefined) return DEFAULT_POLICY;
  const parsed = PermissionPolicySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const aside = keepAside(path, 'invalid');
  console.error(
    `[porthole] permissions: ${path} is not a valid policy (${describeIssues(parsed.error)}); using the defaults (every tool allowed)${aside ? `, the file is kept as ${aside}` : ''}. Set the permissions again in the window.`,
  );
  return DEFAULT_POLICY;
}

/** Written beside and renamed over, mode 0600. */
export function writePolicy(path: string, policy: PermissionPolicy): void {
  writeFileAtomic(path, `${JSON.stringify(policy, null, 2)}\n`);
}
