interface Cookie {
  value: string;
  path: string;
}

/**
 * A browser without a screen: GETs with redirects followed by hand and a cookie jar per origin
 * (with path matching), enough for OAuth round trips between the daemon and local providers.
 */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, Cookie>>();
  /** Every URL visited, in order. */
  readonly visited: string[] = [];

  /** One GET, cookies sent and stored, no redirect followed. */
  async get(url: string): Promise<Response> {
    const target = new URL(url);
    const cookies = [...(this.jar.get(target.origin)?.entries() ?? [])]
      .filter(([, c]) => target.pathname === c.path || target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`);
    this.visited.push(url);
    const response = await fetch(url, { redirect: 'manual', headers: cookies.length ? { cookie: cookies.join('; ') } : {} });
    this.store(target, response.headers.getSetCookie());
    return response;
  }

  /** Follows redirects from `url` until `stop(url)` holds for the next location; returns that URL. */
  async follow(url: string, stop: (url: string) => boolean, maxHops = 25): Promise<string> {
    let current = url;
    for (let hop = 0; hop < maxHops; hop++) {
      const response = await this.get(current);
      const location = response.headers.get('location');
      if (!location || response.status < 300 || response.status >= 400) {
        throw new Error(`${current} answered ${response.status} without a redirect: ${(await response.text()).slice(0, 300)}`);
      }
      await response.body?.cancel();
      current = new URL(location, current).toString();
      if (stop(current)) return current;
    }
    throw new Error(`more than ${maxHops} redirects from ${url}`);
  }

  /** Stores a cookie as a page's script-issued request would have (the dashboard's fetch). */
  setCookie(url: string, name: string, value: string, path = '/'): void {
    const origin = new URL(url).origin;
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    this.jar.get(origin)!.set(name, { value, path });
  }

  /** Whether a cookie of this name is held for the origin of `url`. */
  hasCookie(url: string, name: string): boolean {
    return this.jar.get(new URL(url).origin)?.has(name) ?? false;
  }

  private store(target: URL, headers: string[]): void {
    let cookies = this.jar.get(target.origin);
    if (!cookies) this.jar.set(target.origin, (cookies = new Map()));
    for (const header of headers) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = target.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = false;
      for (const attribute of attributes) {
        const [key, val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = val;
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(val) < Date.now()) expired = true;
      }
      if (expired) cookies.delete(name);
      else cookies.set(name, { value, path });
    }
  }
}

/** A port that was free a moment ago, so a daemon's base URL can be known before it starts. */
export { freePort } from '../local-servers.js';
