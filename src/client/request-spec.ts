/** One HTTP request to send, relative to the base URL. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path below the base URL, without leading slash: `products`, `orders/latest/123`. */
  path: string;
  /** Query parameters, in the order they are sent. */
  query?: Readonly<Record<string, string>>;
  /** JSON text of the body. */
  body?: string;
}

/** The path of a spec with its query, as errors show it and as it is sent: `/products?limit=100`. */
export function describePath(spec: RequestSpec): string {
  const query = spec.query ? new URLSearchParams(spec.query).toString() : '';
  return `/${spec.path}${query === '' ? '' : `?${query}`}`;
}
