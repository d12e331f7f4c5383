/** What every default database name begins with (see {@link defaultDbName}). */
export const DB_NAME_PREFIX = 'pos-cloud-mirror:';

/**
 * The default database name for a base URL and tenant: one database each, so two accounts or
 * two services never mix in one store. The token is never part of it. Nothing checks the tenant
 * against the data (the `id_c` of the records): give each account its own `tenant` (or `dbName`),
 * or its records land in the database of another.
 *
 * The name follows the address as written: `http://` and `https://`, a host alias or a proxy in
 * front of the service each name another database, and the copy of the old address stays where
 * it was (a mirror reports such copies that still hold edits: `status.stranded`).
 */
export function defaultDbName(baseUrl: string, tenant?: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const base = `${DB_NAME_PREFIX}${url.protocol}//${url.host}${path}`;
  return tenant ? `${base}#${tenant}` : base;
}

/**
 * The base URL and tenant a default database name was made from ({@link defaultDbName}), or
 * undefined for any other name. A URL's path never holds `#`, so the first `#` starts the tenant.
 */
export function parseDbName(name: string): { baseUrl: string; tenant: string | undefined } | undefined {
  if (!name.startsWith(DB_NAME_PREFIX)) return undefined;
  const rest = name.slice(DB_NAME_PREFIX.length);
  const hash = rest.indexOf('#');
  const address = hash < 0 ? rest : rest.slice(0, hash);
  try {
    const url = new URL(address);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  } catch {
    return undefined;
  }
  return { baseUrl: address, tenant: hash < 0 ? undefined : rest.slice(hash + 1) };
}
