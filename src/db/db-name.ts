/**
 * The default database name for a base URL and tenant: one database each, so two accounts or
 * two services never mix in one store. The token is never part of it. Nothing checks the tenant
 * against the data (the `id_c` of the records): give each account its own `tenant` (or `dbName`),
 * or its records land in the database of another.
 */
export function defaultDbName(baseUrl: string, tenant?: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const base = `pos-cloud-mirror:${url.protocol}//${url.host}${path}`;
  return tenant ? `${base}#${tenant}` : base;
}
