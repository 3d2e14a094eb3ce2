package outbound

// The address classifier: what kind of address an IP is, as the guard
// sees it. Every address a request connects to is classified after DNS
// resolution, at dial time; only Public addresses pass without a Config
// allowance.
//
// IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d,
// SIIT-translated ::ffff:0:a.b.c.d, deprecated IPv4-compatible ::a.b.c.d,
// NAT64 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD::) are classified by the
// IPv4 address they carry, so that ::ffff:127.0.0.1 is loopback and
// 64:ff9b::10.0.0.1 private. Outside the special ranges, IPv6 is public
// only in 2000::/3, the global unicast space; the rest is Reserved.

import "net/netip"

// Kind is what an IP address is, for the guard.
type Kind uint8

// The kinds of address. Only Public passes by default; AllowLoopback
// admits Loopback, AllowPrivate admits Private and Shared, and the
// others pass only through Config.AllowCIDRs or Config.AllowHosts.
const (
	Public      Kind = iota
	Loopback         // 127.0.0.0/8, ::1
	Private          // 10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10, 64:ff9b:1::/48
	Shared           // 100.64.0.0/10, carrier-grade NAT
	LinkLocal        // 169.254.0.0/16, fe80::/10
	Metadata         // cloud metadata endpoints (metadataAddrs)
	Unspecified      // 0.0.0.0/8 ("this network"; 0.0.0.0 reaches the host itself), ::
	Multicast        // 224.0.0.0/4, ff00::/8
	Broadcast        // 255.255.255.255
	Reserved         // documentation, benchmarking, IETF, future use, discard, Teredo, IPv6 outside 2000::/3
)

var kindNames = [...]string{
	Public:      "a public address",
	Loopback:    "a loopback address",
	Private:     "a private address",
	Shared:      "a shared (carrier-grade NAT) address",
	LinkLocal:   "a link-local address",
	Metadata:    "a cloud metadata endpoint",
	Unspecified: "an unspecified address",
	Multicast:   "a multicast address",
	Broadcast:   "a broadcast address",
	Reserved:    "a reserved address",
}

// String describes the kind as an error message says it: "a loopback
// address".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "an unknown kind of address"
}

// metadataAddrs are the cloud providers' instance metadata and
// credential endpoints. They sit in ranges that AllowPrivate would
// otherwise open (fd00:ec2::/32 is unique-local, 100.100.100.200 shared)
// or in public space (Azure's 168.63.129.16), so they are their own
// kind, refused unless AllowCIDRs or AllowHosts names them.
var metadataAddrs = map[netip.Addr]string{
	netip.MustParseAddr("169.254.169.254"): "AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, Hetzner",
	netip.MustParseAddr("169.254.170.2"):   "AWS ECS task credentials",
	netip.MustParseAddr("169.254.170.23"):  "AWS EKS Pod Identity",
	netip.MustParseAddr("fd00:ec2::254"):   "AWS over IPv6",
	netip.MustParseAddr("fd00:ec2::23"):    "AWS EKS Pod Identity over IPv6",
	netip.MustParseAddr("fd20:ce::254"):    "GCP over IPv6",
	netip.MustParseAddr("100.100.100.200"): "Alibaba Cloud",
	netip.MustParseAddr("192.0.0.192"):     "Oracle Cloud (legacy)",
	netip.MustParseAddr("168.63.129.16"):   "Azure WireServer",
	netip.MustParseAddr("169.254.0.23"):    "Tencent Cloud",
	netip.MustParseAddr("169.254.42.42"):   "Scaleway",
}

// Classify returns the kind of address a is. A zone is ignored; an
// invalid address is Reserved.
func Classify(a netip.Addr) Kind {
	k, _ := classify(a)
	return k
}

// classify returns a's kind and, when an IPv4 address carried inside an
// IPv6 one decided it, that IPv4 address (else the zero Addr).
func classify(a netip.Addr) (Kind, netip.Addr) {
	a = a.WithZone("")
	switch {
	case !a.IsValid():
		return Reserved, netip.Addr{}
	case a.Is4():
		return classify4(a), netip.Addr{}
	case a.Is4In6():
		v4 := a.Unmap()
		return classify4(v4), v4
	}
	if _, ok := metadataAddrs[a]; ok {
		return Metadata, netip.Addr{}
	}
	b := a.As16()
	switch {
	case a == netip.IPv6Unspecified():
		return Unspecified, netip.Addr{}
	case a == netip.IPv6Loopback():
		return Loopback, netip.Addr{}
	case isZero(b[:8]) && b[8] == 0xff && b[9] == 0xff && b[10] == 0 && b[11] == 0:
		// ::ffff:0:a.b.c.d, SIIT's IPv4-translated form.
		v4 := netip.AddrFrom4([4]byte(b[12:]))
		return classify4(v4), v4
	case isZero(b[:12]):
		// ::a.b.c.d, the deprecated IPv4-compatible form: never public.
		v4 := netip.AddrFrom4([4]byte(b[12:]))
		if k := classify4(v4); k != Public {
			return k, v4
		}
		return Reserved, netip.Addr{}
	case in6(b, nat64, 96):
		v4 := netip.AddrFrom4([4]byte(b[12:]))
		return classify4(v4), v4
	case in6(b, nat64Local, 48):
		return Private, netip.Addr{}
	case b[0] == 0x20 && b[1] == 0x02:
		// 6to4: the IPv4 address follows the prefix.
		v4 := netip.AddrFrom4([4]byte(b[2:6]))
		if k := classify4(v4); k != Public {
			return k, v4
		}
		return Public, netip.Addr{}
	case b[0]&0xfe == 0xfc:
		return Private, netip.Addr{}
	case b[0] == 0xfe && b[1]&0xc0 == 0x80:
		return LinkLocal, netip.Addr{}
	case b[0] == 0xfe && b[1]&0xc0 == 0xc0:
		return Private, netip.Addr{} // site-local, deprecated
	case b[0] == 0xff:
		return Multicast, netip.Addr{}
	case b[0]&0xe0 != 0x20:
		// Outside 2000::/3: 100::/64 (discard) and unassigned space.
		return Reserved, netip.Addr{}
	case b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02,
		// 2001::/23, IETF protocol assignments (Teredo, ORCHID, benchmarking)
		b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8,
		// 2001:db8::/32, documentation
		b[0] == 0x3f && b[1] == 0xff && b[2]&0xf0 == 0,
		// 3fff::/20, documentation
		b[0] == 0x5f && b[1] == 0x00:
		// 5f00::/16, SRv6 segment identifiers
		return Reserved, netip.Addr{}
	}
	return Public, netip.Addr{}
}

var (
	nat64      = [16]byte{0x00, 0x64, 0xff, 0x9b}             // 64:ff9b::/96
	nat64Local = [16]byte{0x00, 0x64, 0xff, 0x9b, 0x00, 0x01} // 64:ff9b:1::/48
)

// in6 reports whether b is in the prefix p/bits (bits a multiple of 8).
func in6(b, p [16]byte, bits int) bool { return string(b[:bits/8]) == string(p[:bits/8]) }

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func classify4(a netip.Addr) Kind {
	if _, ok := metadataAddrs[a]; ok {
		return Metadata
	}
	b := a.As4()
	switch {
	case b[0] == 0:
		return Unspecified
	case b[0] == 127:
		return Loopback
	case b[0] == 10, b[0] == 172 && b[1]&0xf0 == 16, b[0] == 192 && b[1] == 168:
		return Private
	case b[0] == 100 && b[1]&0xc0 == 64:
		return Shared
	case b[0] == 169 && b[1] == 254:
		return LinkLocal
	case b == [4]byte{255, 255, 255, 255}:
		return Broadcast
	case b[0] >= 240:
		return Reserved // 240.0.0.0/4, future use
	case b[0] >= 224:
		return Multicast
	case b[0] == 192 && b[1] == 0 && (b[2] == 0 || b[2] == 2), // 192.0.0.0/24 IETF, 192.0.2.0/24 TEST-NET-1
		b[0] == 192 && b[1] == 88 && b[2] == 99,  // 192.88.99.0/24, the retired 6to4 relay anycast
		b[0] == 198 && b[1]&0xfe == 18,           // 198.18.0.0/15, benchmarking
		b[0] == 198 && b[1] == 51 && b[2] == 100, // 198.51.100.0/24 TEST-NET-2
		b[0] == 203 && b[1] == 0 && b[2] == 113:  // 203.0.113.0/24 TEST-NET-3
		return Reserved
	}
	return Public
}
