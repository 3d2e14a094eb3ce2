package outbound

// The guard: the dialer every connection of a Client goes through, and
// the policy it checks each dialed address against.

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// policy is what a Config allows beyond public addresses.
type policy struct {
	loopback, private bool
	cidrs             []netip.Prefix
	hosts             []string     // lower case, no trailing dot; "*.x" matches below x
	hostAddrs         []netip.Addr // the IP literals among AllowHosts
	allowed           string       // "public", "public and loopback", ... for messages
}

func newPolicy(cfg Config) (*policy, error) {
	p := &policy{loopback: cfg.AllowLoopback, private: cfg.AllowPrivate}
	for i, pfx := range cfg.AllowCIDRs {
		if !pfx.IsValid() {
			return nil, fmt.Errorf("outbound: Config.AllowCIDRs[%d] is not a valid prefix", i)
		}
		// An IPv4-mapped prefix (::ffff:10.0.0.0/104) is its IPv4 one.
		if a := pfx.Addr(); a.Is4In6() && pfx.Bits() >= 96 {
			pfx = netip.PrefixFrom(a.Unmap(), pfx.Bits()-96)
		}
		p.cidrs = append(p.cidrs, pfx.Masked())
	}
	for i, h := range cfg.AllowHosts {
		h = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
		h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
		if a, err := netip.ParseAddr(h); err == nil {
			p.hostAddrs = append(p.hostAddrs, a.WithZone(""))
			continue
		}
		name := strings.TrimPrefix(h, "*.")
		if name == "" || strings.ContainsAny(name, ":/*@ ") {
			return nil, fmt.Errorf("outbound: Config.AllowHosts[%d] is %q; give a host name without a scheme or port (\"api.internal\"), \"*.internal\" for the names below one, or an IP address", i, cfg.AllowHosts[i])
		}
		p.hosts = append(p.hosts, h)
	}
	kinds := []string{"public"}
	if p.loopback {
		kinds = append(kinds, "loopback")
	}
	if p.private {
		kinds = append(kinds, "private")
	}
	p.allowed = strings.Join(kinds, " and ")
	if len(kinds) > 2 {
		p.allowed = strings.Join(kinds[:len(kinds)-1], ", ") + " and " + kinds[len(kinds)-1]
	}
	return p, nil
}

// hostAllowed reports whether AllowHosts names host (as the URL spells
// it, from the dial address).
func (p *policy) hostAllowed(host string) bool {
	if len(p.hosts) == 0 && len(p.hostAddrs) == 0 {
		return false
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		a = a.WithZone("")
		for _, h := range p.hostAddrs {
			if h == a || h.Unmap() == a.Unmap() {
				return true
			}
		}
		return false
	}
	for _, h := range p.hosts {
		if suffix, ok := strings.CutPrefix(h, "*"); ok {
			if len(host) > len(suffix) && strings.HasSuffix(host, suffix) {
				return true
			}
		} else if host == h {
			return true
		}
	}
	return false
}

// check decides about one dialed address: nil, or a *RefusedError.
func (p *policy) check(a netip.Addr) error {
	a = a.WithZone("")
	k, carried := classify(a)
	for _, pfx := range p.cidrs {
		if pfx.Contains(a) || pfx.Contains(a.Unmap()) || carried.IsValid() && pfx.Contains(carried) {
			return nil
		}
	}
	switch {
	case k == Public, k == Loopback && p.loopback, (k == Private || k == Shared) && p.private:
		return nil
	}
	return &RefusedError{Addr: a, Kind: k, Carried: carried, allowed: p.allowed}
}

// guard dials a Client's connections.
type guard struct {
	policy *policy
	dialer net.Dialer // a template, copied per dial
}

func (g *guard) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d := g.dialer
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !g.policy.hostAllowed(host) {
		d.ControlContext = g.control
	}
	return d.DialContext(ctx, network, addr)
}

// control runs once the socket exists and before it connects, with the
// resolved address: the one really dialed.
func (g *guard) control(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		// Fail closed: an address the guard cannot read is not dialed.
		return fmt.Errorf("outbound: the guard cannot read the dialed address %q: %v", address, err)
	}
	return g.policy.check(ap.Addr())
}

// RefusedError is a connection the guard refused: the address a request
// (or one of its redirects) would have reached is not one the Config
// allows.
type RefusedError struct {
	// URL is the URL fetched; empty when the error comes from a bare dial.
	URL string
	// Redirect is the URL a redirect led to, when that is where the
	// refused address came from.
	Redirect string
	// Addr is the address dialed, and Kind what it is.
	Addr netip.Addr
	Kind Kind
	// Carried is the IPv4 address inside Addr that decided Kind (for
	// ::ffff:127.0.0.1, 127.0.0.1); else the zero Addr.
	Carried netip.Addr

	allowed string
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	if e.URL != "" {
		b.WriteString("fetch " + e.URL + " refused: ")
	} else {
		b.WriteString("connection refused by the outbound guard: ")
	}
	if e.Redirect != "" {
		b.WriteString("it redirected to " + e.Redirect + ", and ")
	}
	b.WriteString(e.Addr.String() + " is " + e.Kind.String())
	if e.Carried.IsValid() {
		b.WriteString(" (it carries the IPv4 address " + e.Carried.String() + ")")
	}
	allowed := e.allowed
	if allowed == "" {
		allowed = "public"
	}
	b.WriteString("; the host allows only " + allowed + " addresses (")
	switch e.Kind {
	case Loopback:
		b.WriteString("outbound.Config.AllowLoopback allows loopback ones")
	case Private, Shared:
		b.WriteString("outbound.Config.AllowPrivate allows private and shared ones")
	case Metadata:
		b.WriteString("only listing it in outbound.Config.AllowCIDRs allows a metadata endpoint")
	default:
		b.WriteString("outbound.Config.AllowCIDRs allows the ranges it lists")
	}
	b.WriteString(")")
	return b.String()
}
