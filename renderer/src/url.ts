/**
 * A page URL as the sidebar and headers show it (always as text, never a link): an http(s) URL as
 * origin and path, no query or fragment; any other (`javascript:`, `data:`, `file:`) as it is.
 */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return url;
    return `${u.origin}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return url;
  }
}
