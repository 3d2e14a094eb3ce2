package outbound

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"testing"
)

// fakeDNS is a DNS server on loopback UDP that answers every A question
// with the next of its answers (the last one repeats) and every other
// question with no records: a name whose answer changes between two
// lookups, as a DNS-rebinding attacker's does.
type fakeDNS struct {
	conn    net.PacketConn
	mu      sync.Mutex
	answers []netip.Addr
	asked   int // A questions answered
}

func startDNS(t *testing.T, answers ...netip.Addr) *fakeDNS {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cannot listen for DNS: %v", err)
	}
	s := &fakeDNS{conn: conn, answers: answers}
	t.Cleanup(func() { conn.Close() })
	go s.serve()
	return s
}

func (s *fakeDNS) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := s.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		q := buf[:n]
		// The header, then one question: labels, a zero, type and class.
		i := 12
		for i < len(q) && q[i] != 0 {
			i += int(q[i]) + 1
		}
		if len(q) < 12 || i+5 > len(q) {
			continue
		}
		qtype := binary.BigEndian.Uint16(q[i+1:])
		resp := append([]byte{q[0], q[1], 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0}, q[12:i+5]...)
		if qtype == 1 {
			resp[7] = 1 // one answer: a pointer to the question's name, A, IN, TTL 0, 4 bytes
			a := s.next().As4()
			resp = append(append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4), a[:]...)
		}
		s.conn.WriteTo(resp, from)
	}
}

func (s *fakeDNS) next() netip.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.answers[min(s.asked, len(s.answers)-1)]
	s.asked++
	return a
}

func (s *fakeDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", s.conn.LocalAddr().String())
	}}
}

// TestRebinding: rebind.test first resolves to an address the host
// allows (127.0.0.2, standing in for a public address: tests reach only
// loopback), then to 127.0.0.1, which it does not. The second request
// resolves again and is refused at its dial, on the address the answer
// gave: no check made before resolution could be fooled.
func TestRebinding(t *testing.T) {
	srv := serveOn(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "allowed") }))
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	dns := startDNS(t, netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.1"))
	c := newClient(t, Config{
		Resolver:   dns.resolver(),
		AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")},
		// A new connection per request, so that each one dials.
		Client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}},
	})
	u := "http://rebind.test:" + port + "/"
	resp, err := get(c, t.Context(), u)
	if err != nil || string(resp.Body) != "allowed" {
		t.Fatalf("first request: %+v, %v", resp, err)
	}
	_, err = get(c, t.Context(), u)
	mustRefuse(t, err, "fetch "+u+" refused: 127.0.0.1 is a loopback address")
	dns.mu.Lock()
	asked := dns.asked
	dns.mu.Unlock()
	if asked != 2 {
		t.Fatalf("%d A lookups, want one per request", asked)
	}
}
