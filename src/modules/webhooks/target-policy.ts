import net from 'node:net';

// Where a hook may send (interfaces.md Part 2 "Webhooks"): never to loopback, private,
// link-local (cloud metadata at 169.254.169.254 included), carrier-grade NAT, unspecified,
// multicast or reserved addresses, unless WEBHOOK_ALLOW_PRIVATE_TARGETS=on. Checked on the URL
// when a hook is written and on every resolved address when a delivery is made (DNS can
// change in between). Node's own BlockList does the matching.

const IPV4_BLOCKED: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];
const IPV6_BLOCKED: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['64:ff9b::', 96, 'a translated address'],
  ['100::', 64, 'a reserved address'],
  ['fc00::', 7, 'a private address'],
  ['fe80::', 10, 'a link-local address'],
  ['ff00::', 8, 'a multicast address'],
];

const lists = [...IPV4_BLOCKED.map((r) => [...r, 'ipv4'] as const), ...IPV6_BLOCKED.map((r) => [...r, 'ipv6'] as const)]
  .map(([network, prefix, reason, family]) => {
    const list = new net.BlockList();
    list.addSubnet(network, prefix, family);
    return { list, family, reason };
  });

/** The IPv4 address an IPv4-mapped IPv6 address carries, in dotted form; undefined for any other. */
function ipv4Mapped(address: string): string | undefined {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1).toLowerCase();
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (hex === null) return undefined;
  const [high, low] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Why a hook may not send to this IP address, or null when it may. */
export function forbiddenAddressReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return 'not an IP address';
  // An IPv4-mapped IPv6 address is the IPv4 address it carries, however written: ::ffff:127.0.0.1,
  // or ::ffff:7f00:1 as a URL's host shows it (new URL('http://[::ffff:127.0.0.1]').hostname).
  const mapped = family === 6 ? ipv4Mapped(address) : undefined;
  const [ip, kind] = mapped !== undefined ? [mapped, 'ipv4'] : [address, family === 4 ? 'ipv4' : 'ipv6'];
  for (const { list, family: listFamily, reason } of lists) {
    if (listFamily === kind && list.check(ip, kind)) return reason;
  }
  return null;
}

/** Host names that name this machine or a cloud's metadata service whatever DNS says. */
const FORBIDDEN_HOST_NAMES = /^(localhost|.*\.localhost|metadata\.google\.internal|metadata)\.?$/i;

/**
 * Why a hook URL may not be used as written, or null: `http:`/`https:` only, no credentials,
 * and a host that is neither a forbidden literal address nor a local name. A name that
 * resolves to a forbidden address is caught at delivery (forbiddenAddressReason on each
 * resolved address).
 */
export function forbiddenUrlReason(url: URL, allowPrivateTargets: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (allowPrivateTargets) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) !== 0) {
    const reason = forbiddenAddressReason(host);
    return reason === null ? null : `points to ${reason}`;
  }
  return FORBIDDEN_HOST_NAMES.test(host) ? 'points to a local host name' : null;
}
