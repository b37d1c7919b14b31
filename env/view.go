package env

import (
	"fmt"

	"github.com/splendor-rl/splendor/env/tableview"
)

// Viewer is implemented by envs that can show their table to people: the
// wire's view op, the Python render modes and the browser viewer.
type Viewer interface {
	// View is the table as viewer sees it (tableview.Referee: everything),
	// in the JSON schema of docs/trace.md with the episode's fields (over:
	// as the Vector knows it), and the same view as a text board.
	View(viewer int, over bool) (view any, board string)
}

// Views returns, for each env in ids (nil: all), its table as viewer (a
// seat, or tableview.Referee) sees it, and as a text board. A view is over
// when the env waits for a reset: its episode ended (or was never started).
func (v *Vector) Views(ids []int, viewer int) (views []any, boards []string, err error) {
	ids = v.idsOrAll(ids)
	if err := v.checkIDs(ids); err != nil {
		return nil, nil, err
	}
	if viewer < tableview.Referee || viewer >= v.Spec.Players {
		return nil, nil, fmt.Errorf("%w: seat %d outside [-1, %d)", ErrBadShape, viewer, v.Spec.Players)
	}
	if _, ok := v.envs[0].(Viewer); !ok {
		return nil, nil, fmt.Errorf("%w: %s cannot show its table", ErrBadOption, v.Spec.ID)
	}
	views, boards = make([]any, len(ids)), make([]string, len(ids))
	for k, i := range ids {
		views[k], boards[k] = v.envs[i].(Viewer).View(viewer, v.pending[i] || v.over[i])
	}
	return views, boards, nil
}
