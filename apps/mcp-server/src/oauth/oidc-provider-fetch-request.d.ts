// oidc-provider's SSRF guard helpers (a plain .js module of the package, without declarations).
declare module 'oidc-provider/lib/helpers/fetch_request.js' {
  /** Whether an IPv4 or IPv6 address is special-use (private, loopback, link-local, …). */
  export function isSpecialUseIP(address: string): boolean;
}
