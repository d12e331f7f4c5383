/**
 * The default database name for a base URL and tenant: one database each, so two accounts or
 * two services never mix in one store. The token is never part of it. A tenant given later
 * (the `id_c` of the data) is checked against the one stored in the database.
 */
export function defaultDbName(baseUrl: string, tenant?: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const base = `pos-cloud-mirror:${url.protocol}//${url.host}${path}`;
  return tenant ? `${base}#${tenant}` : base;
}
