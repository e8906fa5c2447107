const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/**
 * The namespace bindings in scope while a document is scanned: a stack of (prefix, URI) pairs
 * that grows at each `xmlns` declaration and shrinks when its element closes. A lookup walks back
 * from the innermost binding; vim25 answers keep a handful in scope (vcsim re-declares its
 * `XMLSchema-instance` prefix on every typed value), so this beats copying a map per element.
 */
export class NamespaceScope {
  private readonly prefixes: string[] = ['xml'];
  private readonly uris: string[] = [XML_NS];

  /**
   * Binds the `xmlns` / `xmlns:p` attributes among `raw` (`[name, value, ...]` as scanned) and
   * returns how many it bound, to give back to `leave` when the element closes.
   */
  enter(raw: readonly string[]): number {
    let declared = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i];
      if (key.charCodeAt(0) !== 120 /* x */ || !key.startsWith('xmlns')) continue;
      if (key.length === 5) this.push('', raw[i + 1]);
      else if (key.charCodeAt(5) === 58 /* : */) this.push(key.slice(6), raw[i + 1]);
      else continue;
      declared++;
    }
    return declared;
  }

  /** Drops the `count` innermost bindings (what `enter` returned for the closing element). */
  leave(count: number): void {
    if (count === 0) return;
    this.prefixes.length -= count;
    this.uris.length -= count;
  }

  /** The URI bound to `prefix` ('' = the default namespace), or undefined. */
  resolve(prefix: string): string | undefined {
    for (let i = this.prefixes.length - 1; i >= 0; i--) if (this.prefixes[i] === prefix) return this.uris[i];
    return undefined;
  }

  private push(prefix: string, uri: string): void {
    this.prefixes.push(prefix);
    this.uris.push(uri);
  }
}
