package main

import (
	"fmt"
	"hash/maphash"
	"runtime"
	"sync"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
)

// digestSeed keys every digest of a run. Digests are only compared within
// this process, so maphash (several times faster than FNV on the ~100 KiB a
// big batch reply carries, on cores the server shares) is enough.
var digestSeed = maphash.MakeSeed()

// alterFunc changes a step's actions just before they are digested and
// played; only tests of --verify use it, to make a replay diverge.
type alterFunc func(step int, mask []uint8, actions []int32)

// player chooses one batch's actions and digests what it sends and sees.
// The wire client and the replay play through the same player, so the replay
// regenerates the actions from its own masks and the same action stream
// instead of storing them: any divergence changes the masks, the actions
// and so the digest.
type player struct {
	numActions int
	disabled   bool // autoreset disabled: the client resets ended envs
	rand       rng.Rand
	actions    []int32
	resets     []int
	hash       *maphash.Hash // nil without --verify
	replies    int           // batch replies seen (the reset's included)
	steps      int
	alter      alterFunc
}

// actionSeed is client c's action stream: independent of the deal seeds.
func actionSeed(seed uint64, client int) uint64 { return rng.Derive(seed, uint64(client)) }

func newPlayer(cfg *loadConfig, numActions int, seed uint64) *player {
	p := &player{numActions: numActions, disabled: cfg.autoreset == string(env.Disabled),
		rand: rng.New(seed), actions: make([]int32, cfg.envs)}
	if cfg.verify {
		p.hash = &maphash.Hash{}
		p.hash.SetSeed(digestSeed)
	}
	return p
}

// choose draws one uniformly random legal action per env from the mask.
func (p *player) choose(mask []uint8) []int32 {
	na := p.numActions
	for i := range p.actions {
		p.actions[i] = env.SampleLegal(mask[i*na:(i+1)*na], &p.rand)
	}
	if p.alter != nil {
		p.alter(p.steps, mask, p.actions)
	}
	p.steps++
	if p.hash != nil {
		_, _ = p.hash.Write(wire.Int32Tensor(p.actions, len(p.actions)).Data)
	}
	return p.actions
}

// see digests a batch reply. ended and final_obs mean something only in
// step replies (PROTOCOL.md §5), so reset replies leave them out.
func (p *player) see(r *wire.BatchReply, stepped bool) {
	p.replies++
	if p.hash == nil {
		return
	}
	for _, t := range []*wire.Tensor{&r.Obs, &r.Mask, &r.Rewards, &r.Terminated, &r.Truncated, &r.ToPlay} {
		_, _ = p.hash.Write(t.Data)
	}
	if stepped && r.Ended != nil && r.FinalObs != nil {
		_, _ = p.hash.Write(r.Ended.Data)
		_, _ = p.hash.Write(r.FinalObs.Data)
	}
}

// ended lists the envs to reset after a step: under disabled autoreset the
// ones whose episodes ended, otherwise none (the server restarts them).
func (p *player) ended(r *wire.BatchReply) []int {
	p.resets = p.resets[:0]
	if !p.disabled {
		return p.resets
	}
	for i := range p.actions {
		if r.Terminated.Data[i] != 0 || r.Truncated.Data[i] != 0 {
			p.resets = append(p.resets, i)
		}
	}
	return p.resets
}

func (p *player) sum() uint64 {
	if p.hash == nil {
		return 0
	}
	return p.hash.Sum64()
}

// trajectory is one client's run, as much as its replay needs.
type trajectory struct {
	client     int
	envSeed    uint64
	actionSeed uint64
	replies    int
	digest     uint64
}

// verifyReport says how many trajectories replayed identically.
type verifyReport struct {
	Verified  int      `json:"verified"`
	Identical int      `json:"identical"`
	Differ    []string `json:"differ,omitempty"`
}

// verifyTrajectories replays every trajectory, a few at a time (each replay
// already steps its batch on every core).
func verifyTrajectories(cfg *loadConfig, trs []trajectory, alter alterFunc) *verifyReport {
	verdicts := make([]error, len(trs))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, tr := range trs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			verdicts[i] = verifyOne(cfg, tr, alter)
		}()
	}
	wg.Wait()
	report := &verifyReport{Verified: len(trs)}
	for _, err := range verdicts {
		if err != nil {
			report.Differ = append(report.Differ, err.Error())
		} else {
			report.Identical++
		}
	}
	return report
}

func verifyOne(cfg *loadConfig, tr trajectory, alter alterFunc) error {
	digest, err := replay(cfg, tr, alter)
	switch {
	case err != nil:
		return fmt.Errorf("client %d: replay failed: %w", tr.client, err)
	case digest != tr.digest:
		return fmt.Errorf("client %d: trajectory differs within its %d replies", tr.client, tr.replies)
	}
	return nil
}

// replay plays a trajectory again in this process, with the client's seeds
// and action stream, up to the same number of replies, and returns its
// digest. It makes the same calls in the same order as loadClient.play.
func replay(cfg *loadConfig, tr trajectory, alter alterFunc) (uint64, error) {
	v, err := env.Make(cfg.id, cfg.envs, cfg.options(), tr.envSeed, nil)
	if err != nil {
		return 0, err
	}
	p := newPlayer(cfg, v.Spec.NumActions, tr.actionSeed)
	p.alter = alter
	if err := v.Reset(nil, nil); err != nil {
		return 0, err
	}
	p.see(vectorReply(v), false)
	for p.replies < tr.replies {
		if err := v.Step(p.choose(v.Mask)); err != nil {
			return 0, fmt.Errorf("step %d: %w", p.steps, err)
		}
		p.see(vectorReply(v), true)
		if ended := p.ended(vectorReply(v)); len(ended) > 0 && p.replies < tr.replies {
			if err := v.Reset(ended, nil); err != nil {
				return 0, err
			}
			p.see(vectorReply(v), false)
		}
	}
	return p.sum(), nil
}

// vectorReply views a Vector's buffers as the server's batch reply carries
// them (the same bytes, so digests compare).
func vectorReply(v *env.Vector) *wire.BatchReply {
	n := v.Len()
	r := &wire.BatchReply{
		Obs:        obsTensor(v.Obs, v.ObsF32),
		Mask:       wire.Uint8Tensor(v.Mask, n, v.Spec.NumActions),
		Rewards:    wire.Float32Tensor(v.Rewards, n, v.Spec.Players),
		Terminated: wire.BoolTensor(v.Terminated, n),
		Truncated:  wire.BoolTensor(v.Truncated, n),
		ToPlay:     wire.Int32Tensor(v.ToPlay, n),
	}
	if v.Spec.Autoreset == env.SameStep {
		ended, final := wire.BoolTensor(v.Ended, n), obsTensor(v.FinalObs, v.FinalObsF32)
		r.Ended, r.FinalObs = &ended, &final
	}
	return r
}

// obsTensor picks the observation buffer of the batch's dtype; only its
// bytes are digested, so the shape is left out.
func obsTensor(u8 []uint8, f32 []float32) wire.Tensor {
	if f32 != nil {
		return wire.Float32Tensor(f32)
	}
	return wire.Uint8Tensor(u8)
}
