/**
 * SSRF protection for webhook targets. Before every attempt the URL's host is resolved (all of its
 * addresses) and refused when any address is not public unicast: private (RFC 1918), loopback,
 * link-local (cloud metadata at 169.254.169.254), unique-local, multicast, reserved, CGNAT, unspecified
 * (0.0.0.0, ::), IPv4-mapped/translated forms of those, NAT64/6to4/Teredo (they embed an IPv4 address
 * we cannot vouch for) and IPv6 outside 2000::/3. With `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK=1, for
 * tests and local use) loopback, and only loopback, is also allowed.
 *
 * The request then connects to the address that was checked (`pinnedLookup`), never resolving the
 * name again: a DNS answer that changes between the check and the connection (DNS rebinding) cannot
 * send the request elsewhere. TLS still verifies the certificate against the URL's host name.
 */
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

export interface VettedTarget {
  url: URL;
  /** The host name as the request names it (Host header, TLS server name), without IPv6 brackets. */
  hostname: string;
  address: string;
  family: 4 | 6;
}

/** `undefined` when the address may be called; otherwise the name of the range that forbids it. */
export function refusedRange(address: string, allowLoopback = false): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/%.*$/, '')); // a zone id (fe80::1%eth0) never makes an address public
  } catch {
    return 'unparseable';
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return refusedRange(v6.toIPv4Address().toString(), allowLoopback);
    const range = v6.range();
    if (range === 'loopback') return allowLoopback ? undefined : 'loopback';
    if (range !== 'unicast') return range;
    // Global unicast is 2000::/3; the rest of the space is unassigned or embeds IPv4 (::a.b.c.d).
    if ((v6.parts[0] & 0xe000) !== 0x2000) return 'reserved';
    return undefined;
  }
  const range = ip.range();
  if (range === 'loopback') return allowLoopback ? undefined : 'loopback';
  return range === 'unicast' ? undefined : range;
}

/**
 * Resolves and vets a webhook URL. Throws TargetRefused (never contacting the target) when the URL is
 * not http(s), does not resolve, or any of its addresses is refused.
 */
export async function resolveTarget(rawUrl: string, options: { allowLoopback?: boolean; resolver?: Resolver } = {}): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TargetRefused(`refused target: not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefused(`refused target: ${url.protocol} is not http(s)`);
  if (url.username || url.password) throw new TargetRefused('refused target: credentials in the URL');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (net.isIP(hostname)) {
    addresses = [{ address: hostname, family: net.isIP(hostname) }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(hostname);
    } catch (error) {
      throw new TargetRefused(`refused target: ${hostname} does not resolve (${(error as { code?: string }).code ?? String(error)})`);
    }
    if (addresses.length === 0) throw new TargetRefused(`refused target: ${hostname} has no address`);
  }
  for (const { address } of addresses) {
    const range = refusedRange(address, options.allowLoopback);
    if (range) {
      const via = address === hostname ? '' : ` (${hostname} resolves to it)`;
      throw new TargetRefused(`refused target: ${address}${via} is in the ${range} range; webhooks only go to public addresses${range === 'loopback' ? ' (loopback needs WEBHOOK_ALLOW_LOOPBACK=1)' : ''}`);
    }
  }
  const chosen = addresses[0];
  return { url, hostname, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** A socket `lookup` that answers every name with the vetted address (no second resolution). */
export function pinnedLookup(target: VettedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
