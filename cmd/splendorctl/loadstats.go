package main

import (
	"bufio"
	"fmt"
	"math"
	"math/bits"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// histogram counts durations in buckets 1/32 of an octave wide (below 64 ns,
// one per nanosecond), so percentiles of millions of round trips cost a
// fixed 15 KiB per client and are off by at most 1/64.
type histogram struct {
	counts [59 * 32]int64
	n      int64
	max    time.Duration
}

func bucketOf(d time.Duration) int {
	v := uint64(max(d, 0))
	if v < 64 {
		return int(v)
	}
	shift := bits.Len64(v) - 6 // v>>shift is in [32, 64)
	return shift*32 + int(v>>shift)
}

// bucketValue is the middle of bucket b.
func bucketValue(b int) time.Duration {
	if b < 64 {
		return time.Duration(b)
	}
	shift := b/32 - 1
	low := uint64(b-shift*32) << shift
	return time.Duration(low + (uint64(1)<<shift)/2)
}

func (h *histogram) add(d time.Duration) {
	h.counts[bucketOf(d)]++
	h.n++
	h.max = max(h.max, d)
}

func (h *histogram) merge(o *histogram) {
	for b, n := range o.counts {
		h.counts[b] += n
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// quantile is the duration that q of the samples do not exceed (0 if none).
func (h *histogram) quantile(q float64) time.Duration {
	rank := max(int64(math.Ceil(q*float64(h.n))), 1)
	seen := int64(0)
	for b, n := range h.counts {
		seen += n
		if n > 0 && seen >= rank {
			return min(bucketValue(b), h.max)
		}
	}
	return h.max
}

// rssMetric is the standard Go process collector's resident memory gauge.
const rssMetric = "process_resident_memory_bytes"

// rssSampler reads the server's resident memory from its Prometheus
// endpoint once a second while the load runs.
type rssSampler struct {
	url    string
	client http.Client
	stop   chan struct{}
	done   chan struct{}
	report rssReport
	err    error // the first failed sample: the reason when none succeeded
}

// rssReport is the server's resident memory in bytes over the run.
type rssReport struct {
	Start   float64 `json:"start"`
	Peak    float64 `json:"peak"`
	End     float64 `json:"end"`
	Samples int     `json:"samples"`
}

// metricsURL is the metrics endpoint on the host and port of a /ws URL.
func metricsURL(ws string) string {
	u, err := url.Parse(ws)
	if err != nil {
		return ws
	}
	u.Scheme = strings.Replace(u.Scheme, "ws", "http", 1)
	u.Path, u.RawQuery, u.Fragment = "/metrics", "", ""
	return u.String()
}

// startRSS takes the first sample now, then one a second until finish.
func startRSS(metrics string) *rssSampler {
	s := &rssSampler{url: metrics, client: http.Client{Timeout: 2 * time.Second},
		stop: make(chan struct{}), done: make(chan struct{})}
	s.sample()
	go s.loop()
	return s
}

func (s *rssSampler) loop() {
	defer close(s.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.sample()
		}
	}
}

// finish takes the last sample and returns what was seen, or why nothing was.
func (s *rssSampler) finish() (rssReport, error) {
	close(s.stop)
	<-s.done
	s.sample()
	if s.report.Samples == 0 {
		return s.report, s.err
	}
	return s.report, nil
}

func (s *rssSampler) sample() {
	rss, err := s.read()
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	if s.report.Samples == 0 {
		s.report.Start, s.report.Peak = rss, rss
	}
	s.report.Peak = max(s.report.Peak, rss)
	s.report.End = rss
	s.report.Samples++
}

func (s *rssSampler) read() (float64, error) {
	resp, err := s.client.Get(s.url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s", s.url, resp.Status)
	}
	return parseRSS(bufio.NewScanner(resp.Body), s.url)
}

// parseRSS finds the unlabelled gauge in the Prometheus text format.
func parseRSS(lines *bufio.Scanner, from string) (float64, error) {
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) >= 2 && fields[0] == rssMetric {
			return strconv.ParseFloat(fields[1], 64)
		}
	}
	if err := lines.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s has no %s", from, rssMetric)
}
