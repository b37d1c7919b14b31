package server

import (
	"bytes"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
)

// Client is a minimal protocol client, for the end-to-end tests and the wire
// benchmark (the Python client is the one users meet). Send and Recv may be
// interleaved to pipeline requests.
type Client struct {
	ws     *websocket.Conn
	codec  *wire.Codec
	buf    bytes.Buffer // the request being sent
	in     bytes.Buffer // the reply being read
	nextID uint64
}

// Dial connects to a server's /ws URL.
func Dial(url string) (*Client, error) {
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		return nil, err
	}
	return &Client{ws: ws, codec: wire.NewCodec()}, nil
}

// Close says goodbye with a normal closure (best effort, so that the server
// does not log a drop) and closes the connection.
func (c *Client) Close() error {
	msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
	_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	return c.ws.Close()
}

// Send writes req with the next id, which it returns.
func (c *Client) Send(req wire.Request) (uint64, error) {
	c.nextID++
	req.ID = c.nextID
	if err := c.codec.Encode(&c.buf, &req); err != nil {
		return 0, err
	}
	return req.ID, c.ws.WriteMessage(websocket.BinaryMessage, c.buf.Bytes())
}

// SendRaw writes a frame as it is, for tests of malformed input.
func (c *Client) SendRaw(kind int, frame []byte) error { return c.ws.WriteMessage(kind, frame) }

// Recv reads the next reply into reply; a server error comes back as *wire.Error.
func (c *Client) Recv(reply any) error {
	_, r, err := c.ws.NextReader()
	if err != nil {
		return err
	}
	c.in.Reset()
	if _, err := c.in.ReadFrom(r); err != nil {
		return err
	}
	return wire.DecodeReply(c.in.Bytes(), reply)
}

// Call sends req and reads its reply (replies come in request order, so
// with nothing else in flight it is req's).
func (c *Client) Call(req wire.Request, reply any) error {
	if _, err := c.Send(req); err != nil {
		return err
	}
	return c.Recv(reply)
}
