package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// loadReport is a load run's result: printed for people and, with --json,
// as one JSON line.
type loadReport struct {
	Env          string        `json:"env"`
	Clients      int           `json:"clients"`
	Envs         int           `json:"envs_per_client"`
	Dtype        string        `json:"dtype"`
	Autoreset    string        `json:"autoreset"`
	Seconds      float64       `json:"seconds"`
	EnvSteps     int64         `json:"env_steps"`
	StepRequests int64         `json:"step_requests"`
	EnvStepsPerS float64       `json:"env_steps_per_s"`
	Latency      latencyReport `json:"latency_us"`
	// Errors counts the clients stopped by each kind of error: a wire
	// error code, or dial, connection, stalled, protocol.
	Errors         map[string]int    `json:"errors"`
	FirstErrors    map[string]string `json:"first_errors,omitempty"`
	RSS            *rssReport        `json:"rss_bytes,omitempty"`
	RSSUnavailable string            `json:"rss_unavailable,omitempty"`
	Trajectories   *verifyReport     `json:"trajectories,omitempty"`
}

// latencyReport is the step round trip in microseconds.
type latencyReport struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

func newLoadReport(cfg *loadConfig, elapsed time.Duration, clients []*loadClient) loadReport {
	r := loadReport{Env: cfg.id, Clients: cfg.clients, Envs: cfg.envs, Dtype: cfg.dtype, Autoreset: cfg.autoreset,
		Seconds: elapsed.Seconds(), Errors: map[string]int{}, FirstErrors: map[string]string{}}
	var latency histogram
	for _, c := range clients {
		r.EnvSteps += c.envSteps
		r.StepRequests += c.stepRequests
		latency.merge(&c.latency)
		if c.err != nil {
			r.Errors[c.errKind]++
			if _, seen := r.FirstErrors[c.errKind]; !seen {
				r.FirstErrors[c.errKind] = c.err.Error()
			}
		}
	}
	r.EnvStepsPerS = float64(r.EnvSteps) / r.Seconds
	r.Latency = latencyReport{P50: micros(latency.quantile(0.5)), P99: micros(latency.quantile(0.99)), Max: micros(latency.max)}
	return r
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func (r *loadReport) setRSS(rss rssReport, err error) {
	if err != nil {
		r.RSSUnavailable = err.Error()
		return
	}
	r.RSS = &rss
}

func printLoad(out io.Writer, r *loadReport) {
	fmt.Fprintf(out, "load: %d clients × %d envs of %s (%s obs, %s autoreset), %.2f s\n",
		r.Clients, r.Envs, r.Env, r.Dtype, r.Autoreset, r.Seconds)
	fmt.Fprintf(out, "env-steps: %d, %.0f env-steps/s (%d step requests)\n", r.EnvSteps, r.EnvStepsPerS, r.StepRequests)
	if r.StepRequests == 0 {
		fmt.Fprintln(out, "step latency: none (no step completed)")
	} else {
		fmt.Fprintf(out, "step latency: p50 %s, p99 %s, max %s\n",
			microsString(r.Latency.P50), microsString(r.Latency.P99), microsString(r.Latency.Max))
	}
	printErrors(out, r)
	if r.RSS != nil {
		fmt.Fprintf(out, "rss: start %s, peak %s, end %s (%d samples)\n",
			mib(r.RSS.Start), mib(r.RSS.Peak), mib(r.RSS.End), r.RSS.Samples)
	} else {
		fmt.Fprintf(out, "rss: unavailable (%s)\n", r.RSSUnavailable)
	}
	if t := r.Trajectories; t != nil {
		fmt.Fprintf(out, "trajectories: %d/%d identical\n", t.Identical, t.Verified)
		for _, d := range t.Differ {
			fmt.Fprintf(out, "  %s\n", d)
		}
	}
}

func printErrors(out io.Writer, r *loadReport) {
	kinds := slices.Sorted(maps.Keys(r.Errors))
	if len(kinds) == 0 {
		fmt.Fprintln(out, "errors: none")
		return
	}
	total, counts := 0, make([]string, len(kinds))
	for i, k := range kinds {
		total += r.Errors[k]
		counts[i] = fmt.Sprintf("%s %d", k, r.Errors[k])
	}
	fmt.Fprintf(out, "errors: %d (%s)\n", total, strings.Join(counts, ", "))
	for _, k := range kinds {
		fmt.Fprintf(out, "  first %s: %s\n", k, r.FirstErrors[k])
	}
}

func microsString(us float64) string {
	return time.Duration(us * float64(time.Microsecond)).Round(time.Microsecond).String()
}

func mib(bytes float64) string { return fmt.Sprintf("%.1f MiB", bytes/(1<<20)) }

func printLoadJSON(out io.Writer, r *loadReport) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", line)
	return err
}
