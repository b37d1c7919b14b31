package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// Clients stepping without pause, several requests in flight each: Shutdown
// stops reading at once, answers every request it had read, closes every
// connection with "going away", and returns well within its grace. A
// client sees its replies in order and then the close: no request in the
// middle goes unanswered.
func TestShutdownUnderLoad(t *testing.T) {
	srv, url := start(t, testConfig())
	const clients, inFlight = 4, 3
	var wg sync.WaitGroup
	results := make([]error, clients)
	stepping := make(chan struct{}, clients)
	for i := range clients {
		c := dial(t, url)
		made, first := makeBatch(t, c, 32, nil)
		step := wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = stepUntilClosed(c, step, inFlight, stepping)
		}()
	}
	for range clients {
		<-stepping // each client has had a reply, however long a busy machine took
	}
	// The drain is 12 steps of 32 envs: milliseconds, or on a busy machine well under a second; a drain that
	// waited for its grace would take the whole minute.
	const grace = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	began := time.Now()
	require.NoError(t, srv.Shutdown(ctx))
	require.Less(t, time.Since(began), grace/4, "a drain under load takes no grace it does not need")
	wg.Wait()
	for i, err := range results {
		require.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "client %d: %v", i, err)
	}
	require.Equal(t, float64(clients), counterValue(t, srv, "splendor_dropped_connections_total", "shutdown"))
}

// stepUntilClosed keeps inFlight steps (an always-legal "pass" is not
// available, so it resends the first legal actions of a next_step batch
// and accepts illegal_action replies: each is still one reply) in flight
// until the connection closes, telling stepping once it read its first
// reply (or ended before: the error says why); it returns the error that
// ended it.
func stepUntilClosed(c *Client, step wire.Request, inFlight int, stepping chan<- struct{}) error {
	read := 0
	defer func() {
		if read == 0 {
			stepping <- struct{}{}
		}
	}()
	for range inFlight {
		if _, err := c.Send(step); err != nil {
			return err
		}
	}
	for {
		var r wire.BatchReply
		err := c.Recv(&r)
		if _, ok := err.(*wire.Error); err != nil && !ok {
			return err
		}
		if read++; read == 1 {
			stepping <- struct{}{}
		}
		if _, err := c.Send(step); err != nil {
			// the server stopped reading: the replies to what it read still come
			for {
				if err := c.Recv(&r); err != nil {
					if _, ok := err.(*wire.Error); !ok {
						return err
					}
				}
			}
		}
	}
}
