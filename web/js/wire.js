// The wire protocol (encoding/wire/PROTOCOL.md) as a browser speaks it: one
// WebSocket to /ws, each frame one msgpack map, replies matched to requests by
// order (the server answers in request order, so a queue of promises is enough).
import { encode, decode } from "../vendor/msgpack/index.mjs";

// A reply carrying {error: {code, message}}.
export class WireError extends Error {
  constructor({ code, message }) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

export class Connection {
  // open connects and says hello (with the token when the server wants one);
  // the hello reply, kept as `hello`, lists the envs and their options.
  static async open(token = "") {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    socket.binaryType = "arraybuffer";
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error("cannot reach the server's WebSocket"));
    });
    const connection = new Connection(socket);
    connection.hello = await connection.request("hello", token ? { token } : {});
    return connection;
  }

  constructor(socket) {
    this.socket = socket;
    this.waiting = []; // {resolve, reject} per request sent, oldest first
    this.nextId = 1;
    socket.onmessage = (event) => this.receive(decode(new Uint8Array(event.data)));
    socket.onclose = (event) => this.fail(new Error(`connection closed (${event.code} ${event.reason})`));
  }

  // request sends {id, op, ...fields} and resolves with the reply's payload.
  // Seeds are BigInt (PROTOCOL.md §4): useBigInt64 writes them as uint64.
  request(op, fields = {}) {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const frame = encode({ id: this.nextId++, op, ...fields }, { useBigInt64: true });
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.send(frame);
    });
  }

  receive(reply) {
    const { resolve, reject } = this.waiting.shift();
    if (reply.error) reject(new WireError(reply.error));
    else resolve(reply);
  }

  fail(error) {
    this.closedBy = error;
    for (const { reject } of this.waiting.splice(0)) reject(error);
  }
}

// array views a reply tensor {dtype, shape, data} as a typed array. The data
// is copied first: it may start at any offset of the frame, and Int32Array
// and Float32Array need 4-byte alignment (PROTOCOL.md §4).
export function array({ dtype, data }) {
  const bytes = data.slice();
  switch (dtype) {
    case "uint8":
    case "bool":
      return bytes;
    case "int32":
      return new Int32Array(bytes.buffer);
    case "float32":
      return new Float32Array(bytes.buffer);
  }
  throw new Error(`unexpected tensor dtype ${dtype}`);
}

// int32Tensor is a step's actions tensor.
export function int32Tensor(values) {
  const data = new Uint8Array(new Int32Array(values).buffer);
  return { dtype: "int32", shape: [values.length], data };
}
