package workerpool

import (
	"bytes"
	"os"
	"runtime/metrics"
	"strconv"
)

// heapMetrics are the runtime/metrics samples whose sum is the heap in
// use (HeapInuse of runtime.MemStats), read without stopping the world.
var heapMetrics = [...]string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
}

// readMemory measures this process: its Go heap in use and, where the
// system says, its resident set size.
func readMemory() *memoryMessage {
	var samples [len(heapMetrics)]metrics.Sample
	for i, name := range heapMetrics {
		samples[i].Name = name
	}
	metrics.Read(samples[:])
	m := &memoryMessage{Type: typeMemory, RSS: residentBytes()}
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			m.Heap += s.Value.Uint64()
		}
	}
	return m
}

// residentBytes is the resident set size from /proc/self/statm (its
// second field, in pages), or zero where there is no such file.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := bytes.Fields(b)
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(string(fields[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
