/** A page URL as the sidebar and headers show it: origin and path, no query or fragment. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return url;
  }
}
