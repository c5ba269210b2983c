/** 3–32 characters of a-z, 0-9 and hyphens, starting and ending with a letter or digit. */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/

/**
 * Handles that would shadow a route, impersonate the marketplace or confuse
 * buyers. Compared after lowercasing.
 */
export const RESERVED_HANDLES = new Set([
  'about',
  'account',
  'activity',
  'admin',
  'administrator',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'dashboard',
  'devnet',
  'docs',
  'facilitator',
  'feeds',
  'health',
  'help',
  'ingest',
  'leaderboard',
  'login',
  'logout',
  'manifest',
  'marketplace',
  'official',
  'payments',
  'platform',
  'providers',
  'registry',
  'root',
  'security',
  'settings',
  'signin',
  'signup',
  'staff',
  'static',
  'stats',
  'status',
  'support',
  'system',
  'tollbooth',
  'well-known',
  'www',
])

export function isReservedHandle(handle: string) {
  return RESERVED_HANDLES.has(handle.toLowerCase())
}
