import ipaddr from 'ipaddr.js'

/**
 * Which IP addresses a provider-controlled URL may reach. Only ipaddr.js's
 * 'unicast' range is public: loopback, private, link-local, CGNAT,
 * unique-local, unspecified, multicast, broadcast, reserved and every IPv6
 * wrapper of an IPv4 address (IPv4-mapped, IPv4-compatible, 6to4, Teredo,
 * NAT64) are not.
 */
export function isPublicAddress(ip: string): boolean {
  return describeRange(ip) === 'unicast'
}

/**
 * The ipaddr.js range of an address ('unicast', 'private', 'loopback', …),
 * 'ipv4Mapped' for `::ffff:a.b.c.d` and 'ipv4Compatible' for the deprecated
 * `::a.b.c.d`, whatever the embedded IPv4, or 'invalid' when the text is not
 * an IP address.
 */
export function describeRange(ip: string): string {
  if (!ipaddr.isValid(ip)) return 'invalid'
  const parsed = ipaddr.parse(ip)
  if (parsed.kind() === 'ipv4') return parsed.range()
  const ipv6 = parsed as ipaddr.IPv6
  if (ipv6.isIPv4MappedAddress()) return 'ipv4Mapped'
  if (ipv6.range() === 'unicast' && ipv6.parts.slice(0, 6).every((part) => part === 0)) {
    return 'ipv4Compatible'
  }
  return ipv6.range()
}

const RANGE_LABELS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  ipv4Mapped: 'an IPv4-mapped address',
  ipv4Compatible: 'an IPv4-compatible address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  invalid: 'an invalid address',
}

/** "a private address", "a loopback address", …, for failure messages. */
export function describeAddress(ip: string): string {
  return RANGE_LABELS[describeRange(ip)] ?? 'a non-public address'
}
