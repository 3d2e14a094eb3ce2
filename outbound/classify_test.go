package outbound

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// TestClassify covers every blocked range by literal address, in each
// IPv6 form that carries an IPv4 address, and the public addresses
// beside them.
func TestClassify(t *testing.T) {
	cases := []struct {
		addr string
		want Kind
	}{
		// Loopback.
		{"127.0.0.1", Loopback}, {"127.255.255.254", Loopback}, {"127.1.2.3", Loopback}, {"::1", Loopback},
		// Private.
		{"10.0.0.1", Private}, {"10.255.255.255", Private}, {"172.16.0.1", Private}, {"172.31.255.255", Private},
		{"192.168.0.1", Private}, {"192.168.255.255", Private}, {"fc00::1", Private}, {"fd12:3456::1", Private},
		{"fec0::1", Private}, {"64:ff9b:1::a00:1", Private},
		// Shared (CGNAT).
		{"100.64.0.1", Shared}, {"100.127.255.255", Shared},
		// Link-local.
		{"169.254.0.1", LinkLocal}, {"169.254.255.255", LinkLocal}, {"fe80::1", LinkLocal}, {"fe80::1%eth0", LinkLocal},
		{"febf::1", LinkLocal},
		// Metadata endpoints, including those inside otherwise allowable ranges.
		{"169.254.169.254", Metadata}, {"169.254.170.2", Metadata}, {"169.254.170.23", Metadata}, {"fd00:ec2::254", Metadata},
		{"fd00:ec2::23", Metadata}, {"fd20:ce::254", Metadata}, {"100.100.100.200", Metadata}, {"192.0.0.192", Metadata},
		{"168.63.129.16", Metadata}, {"169.254.0.23", Metadata}, {"169.254.42.42", Metadata},
		// Unspecified.
		{"0.0.0.0", Unspecified}, {"0.1.2.3", Unspecified}, {"::", Unspecified},
		// Multicast and broadcast.
		{"224.0.0.1", Multicast}, {"239.255.255.250", Multicast}, {"ff02::1", Multicast}, {"ff05::2", Multicast},
		{"255.255.255.255", Broadcast},
		// Reserved.
		{"240.0.0.1", Reserved}, {"255.255.255.254", Reserved}, {"192.0.0.8", Reserved}, {"192.0.2.1", Reserved},
		{"198.51.100.7", Reserved}, {"203.0.113.9", Reserved}, {"198.18.0.1", Reserved}, {"198.19.255.255", Reserved},
		{"192.88.99.1", Reserved}, {"100::1", Reserved}, {"2001:db8::1", Reserved}, {"2001::1", Reserved},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", Reserved}, {"2001:10::1", Reserved}, {"3fff::1", Reserved},
		{"5f00::1", Reserved}, {"4000::1", Reserved}, {"1::1", Reserved}, {"::1.2.3.4", Reserved},
		// IPv4-mapped, translated, compatible, NAT64 and 6to4 forms.
		{"::ffff:127.0.0.1", Loopback}, {"::ffff:10.1.2.3", Private}, {"::ffff:169.254.169.254", Metadata},
		{"::ffff:0.0.0.0", Unspecified}, {"::ffff:224.0.0.1", Multicast}, {"::ffff:255.255.255.255", Broadcast},
		{"::ffff:100.64.0.1", Shared}, {"::ffff:8.8.8.8", Public},
		{"::ffff:0:127.0.0.1", Loopback}, {"::ffff:0:192.168.1.1", Private}, {"::ffff:0:8.8.8.8", Public},
		{"::127.0.0.1", Loopback}, {"::10.0.0.1", Private},
		{"64:ff9b::127.0.0.1", Loopback}, {"64:ff9b::10.0.0.1", Private}, {"64:ff9b::169.254.169.254", Metadata},
		{"64:ff9b::8.8.8.8", Public},
		{"2002:7f00:1::", Loopback}, {"2002:a00:1::1", Private}, {"2002:808:808::1", Public},
		// Public, next to the blocked ranges.
		{"8.8.8.8", Public}, {"1.1.1.1", Public}, {"9.255.255.255", Public}, {"11.0.0.0", Public},
		{"172.15.255.255", Public}, {"172.32.0.0", Public}, {"192.167.255.255", Public}, {"192.169.0.0", Public},
		{"100.63.255.255", Public}, {"100.128.0.0", Public}, {"169.253.255.255", Public}, {"169.255.0.0", Public},
		{"126.255.255.255", Public}, {"128.0.0.0", Public}, {"223.255.255.255", Public}, {"192.0.1.1", Public},
		{"198.17.255.255", Public}, {"198.20.0.0", Public}, {"168.63.129.17", Public},
		{"2606:4700:4700::1111", Public}, {"2001:4860:4860::8888", Public}, {"2a00:1450::1", Public}, {"2001:200::1", Public},
	}
	for _, c := range cases {
		a := netip.MustParseAddr(c.addr)
		if got := Classify(a); got != c.want {
			t.Errorf("Classify(%s) = %v, want %v", c.addr, got, c.want)
		}
	}
	if got := Classify(netip.Addr{}); got != Reserved {
		t.Errorf("Classify(invalid) = %v, want Reserved", got)
	}
}

// TestPolicy: what each Config allowance admits, and the refusal's text.
func TestPolicy(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		addr string
		want string // "" for allowed, else a substring of the error
	}{
		{"default loopback", Config{}, "127.0.0.1", "127.0.0.1 is a loopback address; the host allows only public addresses (outbound.Config.AllowLoopback allows loopback ones)"},
		{"default public", Config{}, "93.184.216.34", ""},
		{"loopback allowed", Config{AllowLoopback: true}, "127.0.0.1", ""},
		{"mapped loopback allowed", Config{AllowLoopback: true}, "::ffff:127.0.0.1", ""},
		{"mapped loopback", Config{}, "::ffff:127.0.0.1", "::ffff:127.0.0.1 is a loopback address (it carries the IPv4 address 127.0.0.1)"},
		{"loopback does not allow private", Config{AllowLoopback: true}, "10.0.0.1", "10.0.0.1 is a private address; the host allows only public and loopback addresses (outbound.Config.AllowPrivate allows private and shared ones)"},
		{"private allowed", Config{AllowPrivate: true}, "192.168.1.1", ""},
		{"shared allowed", Config{AllowPrivate: true}, "100.64.1.1", ""},
		{"ula allowed", Config{AllowPrivate: true}, "fd12::1", ""},
		{"nat64 private allowed", Config{AllowPrivate: true}, "64:ff9b::10.0.0.1", ""},
		{"private does not allow metadata", Config{AllowPrivate: true, AllowLoopback: true}, "169.254.169.254", "169.254.169.254 is a cloud metadata endpoint; the host allows only public, loopback and private addresses (only listing it in outbound.Config.AllowCIDRs allows a metadata endpoint)"},
		{"private does not allow aws v6 metadata", Config{AllowPrivate: true}, "fd00:ec2::254", "cloud metadata endpoint"},
		{"private does not allow alibaba metadata", Config{AllowPrivate: true}, "100.100.100.200", "cloud metadata endpoint"},
		{"private does not allow link-local", Config{AllowPrivate: true}, "169.254.1.1", "169.254.1.1 is a link-local address; the host allows only public and private addresses (outbound.Config.AllowCIDRs allows the ranges it lists)"},
		{"cidr allows metadata", Config{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("169.254.169.254/32")}}, "169.254.169.254", ""},
		{"cidr allows mapped form", Config{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, "::ffff:127.0.0.5", ""},
		{"cidr allows nat64 form", Config{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, "64:ff9b::10.0.0.1", ""},
		{"mapped cidr", Config{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("::ffff:10.0.0.0/104")}}, "10.9.9.9", ""},
		{"cidr elsewhere", Config{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, "192.168.0.1", "192.168.0.1 is a private address"},
		{"unspecified", Config{AllowLoopback: true, AllowPrivate: true}, "0.0.0.0", "0.0.0.0 is an unspecified address"},
		{"v6 unspecified", Config{}, "::", ":: is an unspecified address"},
		{"multicast", Config{}, "ff02::1", "ff02::1 is a multicast address"},
		{"broadcast", Config{}, "255.255.255.255", "255.255.255.255 is a broadcast address"},
		{"6to4 loopback", Config{}, "2002:7f00:1::", "2002:7f00:1:: is a loopback address (it carries the IPv4 address 127.0.0.1)"},
		{"zone", Config{}, "fe80::1%eth0", "fe80::1 is a link-local address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := newPolicy(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = p.check(netip.MustParseAddr(c.addr))
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && err == nil:
				t.Errorf("allowed; want %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Errorf("error %q\nwant it to contain %q", err, c.want)
			}
			var re *RefusedError
			if err != nil && !errors.As(err, &re) {
				t.Errorf("error is a %T, want *RefusedError", err)
			}
		})
	}
}

// TestControl checks the dial-time hook on the addresses the dialer
// hands it, without connecting anywhere.
func TestControl(t *testing.T) {
	p, err := newPolicy(Config{})
	if err != nil {
		t.Fatal(err)
	}
	g := &guard{policy: p}
	cases := []struct {
		address string
		ok      bool
	}{
		{"127.0.0.1:80", false}, {"[::1]:443", false}, {"[::ffff:127.0.0.1]:80", false}, {"10.0.0.1:8080", false},
		{"[fe80::1%eth0]:80", false}, {"169.254.169.254:80", false}, {"0.0.0.0:80", false}, {"[64:ff9b::a00:1]:80", false},
		{"93.184.216.34:80", true}, {"[2606:4700:4700::1111]:443", true},
		// Unreadable addresses fail closed.
		{"localhost:80", false}, {"", false}, {"127.0.0.1", false},
	}
	for _, c := range cases {
		err := g.control(t.Context(), "tcp", c.address, nil)
		if (err == nil) != c.ok {
			t.Errorf("control(%q) = %v, want ok=%v", c.address, err, c.ok)
		}
	}
}

// TestAllowHosts: names, wildcards and IP literals.
func TestAllowHosts(t *testing.T) {
	p, err := newPolicy(Config{AllowHosts: []string{"API.internal.", "*.svc.cluster", "10.0.0.5", "[::1]"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]bool{
		"api.internal": true, "API.INTERNAL": true, "api.internal.": true, "x.api.internal": false,
		"a.svc.cluster": true, "a.b.svc.cluster": true, "svc.cluster": false, "xsvc.cluster": false,
		"10.0.0.5": true, "10.0.0.6": false, "::1": true, "::ffff:10.0.0.5": true, "localhost": false,
	}
	for host, want := range cases {
		if got := p.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	for _, bad := range []string{"", "*", "*.", "http://x", "x:80", "a b"} {
		if _, err := newPolicy(Config{AllowHosts: []string{bad}}); err == nil {
			t.Errorf("AllowHosts %q accepted", bad)
		}
	}
}

// FuzzClassify: the classifier never panics, an IPv4 address and its
// IPv4-mapped form are the same kind, and a non-public IPv4 address is
// never public in its NAT64, translated or 6to4 forms.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::1.2.3.4", "fe80::1%eth0", "2002:7f00:1::", "8.8.8.8", "::"} {
		a := netip.MustParseAddr(s)
		b := a.As16()
		f.Add(b[:], s)
	}
	f.Fuzz(func(t *testing.T, raw []byte, text string) {
		if a, err := netip.ParseAddr(text); err == nil {
			Classify(a)
		}
		if len(raw) < 16 {
			return
		}
		a := netip.AddrFrom16([16]byte(raw[:16]))
		k := Classify(a)
		if a.Is4In6() && Classify(a.Unmap()) != k {
			t.Fatalf("%s is %v but %s is %v", a, k, a.Unmap(), Classify(a.Unmap()))
		}
		v4 := netip.AddrFrom4([4]byte(raw[:4]))
		if Classify(v4) == Public {
			return
		}
		b4 := v4.As4()
		nat := netip.AddrFrom16([16]byte{0, 0x64, 0xff, 0x9b, 12: b4[0], 13: b4[1], 14: b4[2], 15: b4[3]})
		siit := netip.AddrFrom16([16]byte{8: 0xff, 9: 0xff, 12: b4[0], 13: b4[1], 14: b4[2], 15: b4[3]})
		six := netip.AddrFrom16([16]byte{0x20, 0x02, b4[0], b4[1], b4[2], b4[3], raw[4], raw[5], raw[6], raw[7]})
		for _, x := range []netip.Addr{nat, siit, six, netip.AddrFrom16(v4.As16())} {
			if Classify(x) == Public {
				t.Fatalf("%s (carrying %s, %v) is public", x, v4, Classify(v4))
			}
		}
	})
}
